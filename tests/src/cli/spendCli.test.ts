import { existsSync } from "node:fs"
import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { assert, beforeAll, describe, it } from "@effect/vitest"
import { sessionToken } from "../support/InProcessApp.ts"
import { cliOnPostgres, configHome, svc, svcOnTerminal } from "./CliHarness.ts"

const { app, baseUrl } = cliOnPostgres()
const newHome = configHome()

/** The team's owner session and a test spending key: approved up to USD 50, approval above, denied above USD 100. */
const team = { owner: "", key: "" }
beforeAll(async () => {
  team.owner = await sessionToken({ email: "owner@cli.test", name: "Olivia Owner" })
  assert.strictEqual((await app.call("POST", "/teams", { token: team.owner, body: { name: "Cli" } })).status, 201)
  const key = await app.call("POST", "/treasury/spending-keys", {
    token: team.owner,
    body: { name: "agent", mode: "test", policy: { approvalThreshold: 5_000, perRequestLimit: 10_000 } }
  })
  assert.strictEqual(key.status, 201)
  team.key = key.body.secret
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: team.key,
    body: { amount: 100_000, currency: "USD" },
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(deposit.status, 201)
})

/** The environment of an agent using the spending key from the environment. */
const agent = () => ({ SVC_TOKEN: team.key, SVC_BASE_URL: baseUrl() })
const spendArgs = (amount: string, ...more: Array<string>) => [
  "spend",
  "request",
  "--amount",
  amount,
  "--currency",
  "USD",
  "--merchant",
  "OpenAI",
  "--merchant-category",
  "software",
  "--purpose",
  "API tokens",
  ...more
]

describe("svc login", () => {
  it("stores the credential readable by the user alone; later commands use it until logout", async () => {
    const home = await newHome()
    const noTerminal = await svc(["login", "--base-url", baseUrl()], { XDG_CONFIG_HOME: home })
    assert.strictEqual(noTerminal.code, 2)
    assert.match(noTerminal.stderr, /--token: give the token \(no terminal to prompt on\)/u)
    const login = await svc(["login", "--token", team.key, "--base-url", baseUrl()], { XDG_CONFIG_HOME: home })
    assert.strictEqual(login.code, 0, login.stderr)
    assert.strictEqual(login.stdout, "")
    const file = join(home, "svc", "credentials.json")
    assert.strictEqual((await stat(file)).mode & 0o777, 0o600)
    assert.strictEqual((await stat(join(home, "svc"))).mode & 0o777, 0o700)
    assert.deepStrictEqual(JSON.parse(await readFile(file, "utf8")), { baseUrl: baseUrl(), token: team.key })

    const balance = await svc(["balance"], { XDG_CONFIG_HOME: home })
    assert.strictEqual(balance.code, 0, balance.stderr)
    assert.match(balance.stdout, /available\s+USD 1000\.00/u)

    assert.strictEqual((await svc(["logout"], { XDG_CONFIG_HOME: home })).code, 0)
    const after = await svc(["balance"], { XDG_CONFIG_HOME: home })
    assert.strictEqual(after.code, 7)
    assert.match(after.stderr, /not logged in/u)
    assert.strictEqual(after.stdout, "")
  })

  it("lets SVC_TOKEN and SVC_BASE_URL win over the stored credential; a refused token exits 7 with the request id", async () => {
    const home = await newHome()
    await mkdir(join(home, "svc"), { recursive: true })
    await writeFile(
      join(home, "svc", "credentials.json"),
      JSON.stringify({ baseUrl: "http://127.0.0.1:9", token: "svc_test_not_a_key" })
    )
    const fromEnv = await svc(["balance", "--json"], { XDG_CONFIG_HOME: home, ...agent() })
    assert.strictEqual(fromEnv.code, 0, fromEnv.stderr)
    assert.strictEqual(JSON.parse(fromEnv.stdout).currency, "USD")

    const refused = await svc(["balance"], { XDG_CONFIG_HOME: home, SVC_BASE_URL: baseUrl() })
    assert.strictEqual(refused.code, 7)
    assert.match(refused.stderr, /error: \w+ \(401\)/u)
    assert.match(refused.stderr, /request id: \S+/u)
  })
})

describe("where svc finds the service", () => {
  it("without --base-url, SVC_BASE_URL or a stored URL: the server's default on this machine, http://localhost:$PORT", async () => {
    const home = await newHome()
    const port = new URL(baseUrl()).port
    const login = await svc(["login", "--token", team.key], { XDG_CONFIG_HOME: home, PORT: port })
    assert.strictEqual(login.code, 0, login.stderr)
    assert.include(login.stderr, `logged in to http://localhost:${port};`)
    const stored = JSON.parse(await readFile(join(home, "svc", "credentials.json"), "utf8"))
    assert.strictEqual(stored.baseUrl, `http://localhost:${port}`)
    const balance = await svc(["balance"], { SVC_TOKEN: team.key, PORT: port })
    assert.strictEqual(balance.code, 0, balance.stderr)
    const elsewhere = await svc(["balance"], { SVC_TOKEN: team.key, PORT: "9" })
    assert.strictEqual(elsewhere.code, 6, elsewhere.stderr)
    assert.include(elsewhere.stderr, "could not reach http://localhost:9")
    const help = await svc(["--help"], {})
    assert.match(help.stdout, /SVC_BASE_URL, else the stored login's, else the server's own default/u)
  })
})

describe("one failure style", () => {
  /** `error: <what>`, then details indented by two spaces, then what to do next; nothing else, nothing on stdout. */
  const STYLE = /^error: \S[^\n]*(\n {2}\S[^\n]*)*(\n(see|request id|log in|log in again): [^\n]+)*\n$/u

  it("prints every kind of failure the same way on stderr, with the exit code of its kind", async () => {
    const home = await newHome()
    const runs = await Promise.all([
      svc(["spend", "list", "--limit", "abc"], agent()),
      svc(["spend", "lsit"], agent()),
      svc(["spend", "get"], agent()),
      svc(["spend", "get", crypto.randomUUID()], agent()),
      svc(["spend", "get", "not-an-id"], agent()),
      svc(
        ["checkout", "intent", "--amount", "1", "--currency", "EUR", "--merchant", "Acme", "--purpose", "a book"],
        agent()
      ),
      svc(["balance"], { SVC_TOKEN: team.key, SVC_BASE_URL: "http://127.0.0.1:9" }),
      svc(["balance"], { XDG_CONFIG_HOME: home, SVC_BASE_URL: baseUrl() }),
      svc(["balance"], { ...agent(), SVC_RETRY_MAX_MS: "soon" })
    ])
    const [badFlag, unknownCommand, missingArgument, unknownId, malformedId, refused, down, loggedOut, badSetting] =
      runs
    assert.deepStrictEqual(
      runs.map((run) => run.code),
      [2, 2, 2, 5, 2, 5, 6, 7, 2],
      runs.map((run) => run.stderr).join("\n")
    )
    for (const run of runs) {
      assert.match(run.stderr, STYLE)
      assert.strictEqual(run.stdout, "")
    }
    assert.match(badFlag.stderr, /^error: Invalid value for flag --limit: "abc"/u)
    assert.match(badFlag.stderr, /^see: svc spend list --help$/mu)
    assert.match(unknownCommand.stderr, /^error: Unknown subcommand "lsit"/u)
    assert.match(missingArgument.stderr, /^error: Missing required argument: id/u)
    assert.match(unknownId.stderr, /^error: not_found \(404\): /u)
    assert.match(unknownId.stderr, /^request id: \S+$/mu)
    assert.match(malformedId.stderr, /^error: validation_failed: expected a UUID\n {2}id: expected a UUID\n$/u)
    assert.match(refused.stderr, /^error: \w+ \(400\): /u)
    assert.match(refused.stderr, /currency/u)
    assert.match(down.stderr, /^error: connection_error: .*\n {2}could not reach http:\/\/127\.0\.0\.1:9\n$/u)
    assert.match(loggedOut.stderr, /^error: not logged in\nlog in: svc login, or set SVC_TOKEN\n$/u)
    assert.match(badSetting.stderr, /^error: SVC_RETRY_MAX_MS: expected a whole number of milliseconds/u)
  })
})

describe("svc login checks the credential first", () => {
  it("a key the service refuses exits 7 and stores nothing; so does an unreachable service (exit 6)", async () => {
    const home = await newHome()
    const refused = await svc(["login", "--token", "svc_test_not_a_key", "--base-url", baseUrl()], {
      XDG_CONFIG_HOME: home
    })
    assert.strictEqual(refused.code, 7, refused.stderr)
    assert.match(refused.stderr, /error: \S+ refused this credential \(401\)\n {2}nothing was stored/u)
    assert.notMatch(refused.stderr, /logged in/u)
    const unreachable = await svc(["login", "--token", team.key, "--base-url", "http://127.0.0.1:9"], {
      XDG_CONFIG_HOME: home
    })
    assert.strictEqual(unreachable.code, 6, unreachable.stderr)
    assert.match(unreachable.stderr, /could not reach http:\/\/127\.0\.0\.1:9/u)
    assert.isFalse(existsSync(join(home, "svc", "credentials.json")))
  })

  it("a person's session token is checked too, and stored", async () => {
    const home = await newHome()
    const login = await svc(["login", "--token", team.owner, "--base-url", baseUrl()], { XDG_CONFIG_HOME: home })
    assert.strictEqual(login.code, 0, login.stderr)
    assert.match(login.stderr, /logged in to /u)
  })
})

describe("svc spend request on a terminal", () => {
  it("turns a spinner while it waits for approval: each frame differs from the one before", async () => {
    const run = await svcOnTerminal(spendArgs("60", "--timeout", "2"), agent())
    assert.strictEqual(run.code, 4, run.stdout)
    const frames = run.stdout
      .split("\r")
      .filter((line) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for approval/u.test(line))
      .map((line) => line[0])
    assert.isAtLeast(frames.length, 10, run.stdout)
    for (let i = 1; i < frames.length; i++) assert.notStrictEqual(frames[i], frames[i - 1], `frame ${i}`)
  })
})

describe("svc changelog", () => {
  it("prints the changelog newest first with breaking entries marked; --json prints the API's JSON alone", async () => {
    const [human, json] = await Promise.all([svc(["changelog"], agent()), svc(["changelog", "--json"], agent())])
    assert.strictEqual(human.code, 0, human.stderr)
    assert.strictEqual(json.code, 0, json.stderr)
    const entries: ReadonlyArray<{ id: string; date: string; title: string; breaking: boolean }> = JSON.parse(
      json.stdout
    ).entries
    const dates = entries.map((e) => e.date)
    assert.deepStrictEqual(dates, dates.toSorted().toReversed())
    const [newest] = entries
    assert.isTrue(human.stdout.startsWith(`${newest?.date}  ${newest?.title}`), human.stdout.slice(0, 200))
    assert.include(
      human.stdout,
      "2026-11-28  OAuth access tokens are refused on /v1  [BREAKING]\n  changed: ",
      "a breaking entry is marked"
    )
    assert.include(human.stdout, "  to do:   ")
    assert.isTrue(entries.find((e) => e.id === "oauth-tokens-refused-on-v1")?.breaking)
  })
})

describe("svc spend request", () => {
  it("approves within policy (exit 0) and prints the amount in major units; --json prints the API's JSON alone", async () => {
    const [human, json] = await Promise.all([
      svc(spendArgs("19.99"), agent()),
      svc([...spendArgs("0.5"), "--json"], agent())
    ])
    assert.strictEqual(human.code, 0, human.stderr)
    assert.match(human.stdout, /status\s+approved/u)
    assert.match(human.stdout, /amount\s+USD 19\.99/u)
    assert.match(human.stdout, /merchant\s+OpenAI \(software\)/u)
    assert.strictEqual(json.code, 0, json.stderr)
    const body = JSON.parse(json.stdout)
    assert.deepStrictEqual(
      [body.object, body.status, body.amount, body.currency],
      ["spend_request", "approved", 50, "USD"]
    )
  })

  it("replays the first answer for a repeated --idempotency-key instead of spending twice", async () => {
    const key = crypto.randomUUID()
    const first = await svc([...spendArgs("1.00", "--idempotency-key", key), "--json"], agent())
    const before = JSON.parse((await svc(["balance", "--json"], agent())).stdout).available
    const second = await svc([...spendArgs("1.00", "--idempotency-key", key), "--json"], agent())
    assert.deepStrictEqual([first.code, second.code], [0, 0], second.stderr)
    assert.strictEqual(JSON.parse(second.stdout).id, JSON.parse(first.stdout).id)
    assert.strictEqual(JSON.parse((await svc(["balance", "--json"], agent())).stdout).available, before)
  })

  it("exits 3 with the policy's reasons when denied", async () => {
    const denied = await svc(spendArgs("150.00"), agent())
    assert.strictEqual(denied.code, 3, denied.stderr)
    assert.match(denied.stdout, /status\s+denied/u)
    // The reason's money reads like the amount beside it, never in minor units.
    assert.match(denied.stdout, /amount\s+USD 150\.00/u)
    assert.match(denied.stdout, /reasons\s+amount_over_limit: Over the per-request limit \(limit USD 100\.00\)$/mu)
    assert.notInclude(denied.stdout, "10000")
  })

  it("exits 4 with --no-wait while the request waits for approval; spend get and cancel then act on it", async () => {
    const pending = await svc([...spendArgs("60", "--no-wait"), "--json"], agent())
    assert.strictEqual(pending.code, 4, pending.stderr)
    const request = JSON.parse(pending.stdout)
    assert.strictEqual(request.status, "pending_approval")
    assert.strictEqual(request.decision.reasons[0].code, "approval_threshold")

    const got = await svc(["spend", "get", request.id], agent())
    assert.strictEqual(got.code, 0, got.stderr)
    assert.match(got.stdout, new RegExp(`id\\s+${request.id}`, "u"))
    assert.match(got.stdout, /status\s+pending_approval/u)
    const canceled = await svc(["spend", "cancel", request.id, "--json"], agent())
    assert.strictEqual(canceled.code, 0, canceled.stderr)
    assert.strictEqual(JSON.parse(canceled.stdout).status, "canceled")
    const again = await svc(["spend", "cancel", request.id], agent())
    assert.strictEqual(again.code, 5)
    assert.match(again.stderr, /error: \w+ \(409\)/u)
  })

  it("waits for a decision given meanwhile through the API, then exits 0 with approved", async () => {
    const running = svc(spendArgs("75.00"), agent())
    let approvalId: string | undefined
    for (let i = 0; i < 300 && approvalId === undefined; i++) {
      const pending = await app.call("GET", "/treasury/approvals?status=pending", { token: team.owner })
      approvalId = pending.body.data.find(
        (a: { subjectType: string; subject: { amount: number } }) =>
          a.subjectType === "spend_request" && a.subject.amount === 7_500
      )?.id
      if (approvalId === undefined) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.isDefined(approvalId, "the command created a pending request")
    const approved = await app.call("POST", `/treasury/approvals/${approvalId}/approve`, {
      token: team.owner,
      body: { note: "go" }
    })
    assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
    const done = await running
    assert.strictEqual(done.code, 0, done.stderr)
    assert.match(done.stdout, /status\s+approved/u)
    assert.match(done.stderr, /waiting for approval of spend request/u)
  })

  it("refuses ambiguous or inexact amounts with exit 2 naming the flag, before calling the API", async () => {
    const nowhere = { SVC_TOKEN: team.key, SVC_BASE_URL: "http://127.0.0.1:9" }
    const base = ["spend", "request", "--merchant", "OpenAI", "--purpose", "API tokens"]
    const [both, neither, tooPrecise, noCurrency, yen, badCategory] = await Promise.all([
      svc([...base, "--amount", "19.99", "--amount-minor", "1999", "--currency", "USD"], nowhere),
      svc([...base, "--currency", "USD"], nowhere),
      svc([...base, "--amount", "19.999", "--currency", "USD"], nowhere),
      svc([...base, "--amount-minor", "1999"], nowhere),
      svc([...base, "--amount", "1.5", "--currency", "JPY"], nowhere),
      svc([...base, "--amount", "1", "--currency", "USD", "--merchant-category", "Not A Slug"], nowhere)
    ])
    assert.deepStrictEqual(
      [both, neither, tooPrecise, noCurrency, yen, badCategory].map((r) => r.code),
      [2, 2, 2, 2, 2, 2]
    )
    assert.match(both.stderr, /either --amount or --amount-minor, not both/u)
    assert.match(neither.stderr, /give the amount/u)
    assert.match(tooPrecise.stderr, /--amount: USD amounts have at most 2 decimals/u)
    assert.match(noCurrency.stderr, /--currency/u)
    assert.match(yen.stderr, /--amount: JPY amounts have no decimals/u)
    assert.match(badCategory.stderr, /error: validation_failed/u)
    assert.match(badCategory.stderr, /^ {2}merchant\.category: expected a lowercase slug/mu)
    for (const run of [both, neither, tooPrecise, noCurrency, yen, badCategory]) assert.strictEqual(run.stdout, "")
  })

  it("exits 6 when the service cannot be reached", async () => {
    const down = await svc(["balance"], { SVC_TOKEN: team.key, SVC_BASE_URL: "http://127.0.0.1:9" })
    assert.strictEqual(down.code, 6)
    assert.match(down.stderr, /connection_error/u)
    assert.match(down.stderr, /could not reach http:\/\/127\.0\.0\.1:9/u)
  })
})

describe("svc spend list / get", () => {
  it("lists a page or every page, as aligned lines or JSON; an unknown id is an API error with its request id", async () => {
    const page = await svc(["spend", "list", "--limit", "2", "--json"], agent())
    assert.strictEqual(page.code, 0, page.stderr)
    const first = JSON.parse(page.stdout)
    assert.strictEqual(first.data.length, 2)
    assert.isTrue(first.meta.hasNextPage)
    const [all, human] = await Promise.all([
      svc(["spend", "list", "--limit", "2", "--all", "--json"], agent()),
      svc(["spend", "list", "--status", "denied"], agent())
    ])
    const every = JSON.parse(all.stdout) as Array<{ id: string }>
    assert.isAbove(every.length, 2)
    assert.deepStrictEqual(
      every.slice(0, 2).map((r) => r.id),
      first.data.map((r: { id: string }) => r.id)
    )
    assert.strictEqual(new Set(every.map((r) => r.id)).size, every.length)
    assert.strictEqual(human.code, 0, human.stderr)
    assert.match(human.stdout, /^ID\s+STATUS\s+AMOUNT\s+MERCHANT\s+CREATED$/mu)
    assert.match(human.stdout, /denied\s+USD 150\.00\s+OpenAI/u)
    assert.notMatch(human.stdout, /approved/u)

    const missing = await svc(["spend", "get", crypto.randomUUID()], agent())
    assert.strictEqual(missing.code, 5)
    assert.match(missing.stderr, /error: not_found \(404\)/u)
    assert.match(missing.stderr, /request id: \S+/u)
    const malformed = await svc(["spend", "get", "not-an-id"], agent())
    assert.strictEqual(malformed.code, 2, malformed.stderr)
  })
})

describe("svc approvals", () => {
  it("lists pending approvals and approves or denies them with a session token", async () => {
    const [one, two] = await Promise.all([
      svc([...spendArgs("51", "--no-wait"), "--json"], agent()),
      svc([...spendArgs("52", "--no-wait"), "--json"], agent())
    ])
    const first = JSON.parse(one.stdout)
    const second = JSON.parse(two.stdout)
    const owner = { SVC_TOKEN: team.owner, SVC_BASE_URL: baseUrl() }

    const listed = await svc(["approvals", "list", "--status", "pending", "--json"], owner)
    assert.strictEqual(listed.code, 0, listed.stderr)
    const ids = JSON.parse(listed.stdout).data.map((a: { id: string }) => a.id)
    assert.includeMembers(ids, [first.approval.id, second.approval.id])
    const human = await svc(["approvals", "list", "--status", "pending"], owner)
    assert.match(human.stdout, /spend USD 51\.00 at OpenAI: API tokens/u)

    const [approve, deny] = await Promise.all([
      svc(["approvals", "approve", first.approval.id, "--note", "fine"], owner),
      svc(["approvals", "deny", second.approval.id, "--json"], owner)
    ])
    assert.strictEqual(approve.code, 0, approve.stderr)
    assert.match(approve.stdout, /status\s+approved/u)
    assert.match(approve.stdout, /note\s+fine/u)
    // The approver by name (the API answers it), never by user id.
    assert.match(approve.stdout, /^decided\s+\S+ by Olivia Owner$/mu)
    assert.strictEqual(deny.code, 0, deny.stderr)
    const denied = JSON.parse(deny.stdout)
    assert.strictEqual(denied.status, "denied")
    assert.strictEqual(denied.decidedByName, "Olivia Owner")
    assert.notInclude(approve.stdout, denied.decidedBy)

    const [approvedRequest, deniedRequest] = await Promise.all([
      svc(["spend", "get", first.id, "--json"], agent()),
      svc(["spend", "get", second.id, "--json"], agent())
    ])
    assert.strictEqual(JSON.parse(approvedRequest.stdout).status, "approved")
    assert.strictEqual(JSON.parse(deniedRequest.stdout).status, "denied")
    const shown = await svc(["spend", "get", first.id], agent())
    assert.match(shown.stdout, new RegExp(`^approval\\s+${first.approval.id} approved by Olivia Owner \\(1/1`, "mu"))
    const decided = await svc(["approvals", "list", "--status", "denied"], owner)
    assert.match(decided.stdout, /^ID\s+STATUS\s+EXPIRES\s+DECIDED BY\s+SUBJECT$/mu)
    assert.match(
      decided.stdout,
      new RegExp(`^${second.approval.id}\\s+denied\\s+\\S+\\s+Olivia Owner\\s+spend USD 52\\.00`, "mu")
    )
    const twice = await svc(["approvals", "deny", first.approval.id], owner)
    assert.strictEqual(twice.code, 5)
  }, 180_000)
})

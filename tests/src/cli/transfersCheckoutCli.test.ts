import { assert, beforeAll, describe, it } from "@effect/vitest"
import { sessionToken } from "../support/InProcessApp.ts"
import { cliOnPostgres, svc } from "./CliHarness.ts"

const { app, baseUrl } = cliOnPostgres()

/** Two teams, each with a test spending key; Acme holds USD 500. */
const keys = { acme: "", globex: "" }
beforeAll(async () => {
  for (const name of ["acme", "globex"] as const) {
    const owner = await sessionToken({ email: `owner@${name}.test` })
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name } })).status, 201)
    const key = await app.call("POST", "/treasury/spending-keys", {
      token: owner,
      body: { name: "agent", mode: "test", policy: {} }
    })
    assert.strictEqual(key.status, 201)
    keys[name] = key.body.secret
  }
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: keys.acme,
    body: { amount: 50_000, currency: "USD" },
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(deposit.status, 201)
})

const as = (team: keyof typeof keys) => ({ SVC_TOKEN: keys[team], SVC_BASE_URL: baseUrl() })

describe("svc transfers", () => {
  it("sends to another team's address, which lists, accepts one and declines another", async () => {
    const address = (await app.call("GET", "/v1/transfers/receive-address", { token: keys.globex })).body.address
    const [sent, other] = await Promise.all([
      svc(["transfers", "send", "--to", address, "--amount", "12.00", "--memo", "thanks", "--json"], as("acme")),
      svc(["transfers", "send", "--to", address, "--amount-minor", "250"], as("acme"))
    ])
    assert.strictEqual(sent.code, 0, sent.stderr)
    const transfer = JSON.parse(sent.stdout)
    assert.deepStrictEqual([transfer.status, transfer.amount, transfer.memo], ["pending_acceptance", 1_200, "thanks"])
    assert.strictEqual(other.code, 0, other.stderr)
    assert.match(other.stdout, /amount\s+USD 2\.50/u)
    const otherId = /^id\s+(\S+)$/mu.exec(other.stdout)?.[1]
    assert.isDefined(otherId)

    const listed = await svc(["transfers", "list", "--direction", "incoming", "--json"], as("globex"))
    assert.strictEqual(listed.code, 0, listed.stderr)
    assert.includeMembers(
      JSON.parse(listed.stdout).data.map((t: { id: string }) => t.id),
      [transfer.id, otherId]
    )
    const [accepted, declined] = await Promise.all([
      svc(["transfers", "accept", transfer.id], as("globex")),
      svc(["transfers", "decline", otherId ?? "", "--json"], as("globex"))
    ])
    assert.strictEqual(accepted.code, 0, accepted.stderr)
    assert.match(accepted.stdout, /status\s+completed/u)
    assert.strictEqual(declined.code, 0, declined.stderr)
    assert.strictEqual(JSON.parse(declined.stdout).status, "declined")

    const human = await svc(["transfers", "list"], as("acme"))
    assert.match(human.stdout, new RegExp(`${transfer.id}\\s+completed\\s+outgoing\\s+USD 12\\.00\\s+${address}`, "u"))
    const again = await svc(["transfers", "accept", transfer.id], as("globex"))
    assert.strictEqual(again.code, 5)
    assert.match(again.stderr, /error: transfer_not_pending \(409\)/u)
    const inexact = await svc(["transfers", "send", "--to", address, "--amount", "1.001"], as("acme"))
    assert.strictEqual(inexact.code, 2)
    assert.match(inexact.stderr, /--amount: USD amounts have at most 2 decimals/u)
  })
})

describe("svc checkout", () => {
  it("creates an intent and shows its card once, saying so; later calls show only the last four digits", async () => {
    const intent = await svc(
      [
        "checkout",
        "intent",
        "--amount",
        "25",
        "--currency",
        "USD",
        "--merchant",
        "Acme Books",
        "--mcc",
        "5942",
        "--country",
        "US",
        "--purpose",
        "a book on double-entry bookkeeping",
        "--json"
      ],
      as("acme")
    )
    assert.strictEqual(intent.code, 0, intent.stderr)
    const created = JSON.parse(intent.stdout)
    assert.deepStrictEqual([created.status, created.amount], ["approved", 2_500])

    const card = await svc(["checkout", "card", created.id], as("acme"))
    assert.strictEqual(card.code, 0, card.stderr)
    const number = /^number\s+(\d{12,19})$/mu.exec(card.stdout)?.[1]
    assert.isDefined(number, card.stdout)
    assert.match(card.stdout, /cvc\s+\d{3,4}/u)
    assert.match(card.stdout, /shown once/u)

    const later = await svc(["checkout", "card", created.id, "--json"], as("acme"))
    assert.strictEqual(later.code, 0, later.stderr)
    const reference = JSON.parse(later.stdout)
    assert.isUndefined(reference.number)
    assert.strictEqual(reference.last4, number?.slice(-4))
  })
})

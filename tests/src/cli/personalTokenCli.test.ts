import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"
import { configHome, svc } from "./CliHarness.ts"

const newHome = configHome()

/**
 * A human approver's CLI credential: a personal token made with their dashboard session (the real server process,
 * signed in through the mailed link) that `svc` takes, acting as that person in their role, until revoked.
 */
describe("svc with a personal token made in the dashboard", () => {
  const processes = apiProcesses()
  let server: Running
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const owner = sessionToken({ email: `owner-${suffix}@example.com` })
  const approverEmail = `approver-${suffix}@example.com`
  const memberEmail = `member-${suffix}@example.com`
  let teamId = ""
  let agentKey = ""

  /** A JSON call to the server, with a bearer token or the cookie session's headers. */
  const call = async (
    method: string,
    path: string,
    options: { readonly token?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}
  ) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        ...options.headers,
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
  }

  /** Joins the team by invitation with `role`, as a person provisioned from a session JWT. */
  const join = async (email: string, role: "admin" | "member") => {
    const before = (await outbox.messages()).length
    const invited = await call("POST", `/teams/${teamId}/invites`, { token: owner, body: { email, role } })
    assert.strictEqual(invited.status, 201, JSON.stringify(invited.body))
    const token = await outbox.waitFor(email, /"token": "([^"]+)"/u, before)
    const accepted = await call("POST", "/invites/accept", { token: sessionToken({ email }), body: { token } })
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
  }

  /** Signs in as the dashboard does (mailed link, then its token for the cookie): the cookie and CSRF headers. */
  const dashboardSession = async (email: string) => {
    const before = (await outbox.messages()).length
    assert.strictEqual((await call("POST", "/auth/sign-in-links", { body: { email } })).status, 202)
    const token = await outbox.waitFor(email, /#token=([A-Za-z0-9_-]+)/u, before)
    const opened = await call("POST", "/auth/sessions", { body: { token } })
    assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    return { cookie, "x-csrf-token": opened.body.csrfToken as string }
  }

  /** Makes a personal token in the person's dashboard session: its id, secret and that session. */
  const personalToken = async (email: string, name: string) => {
    const headers = await dashboardSession(email)
    const made = await call("POST", "/auth/personal-tokens", { headers, body: { name } })
    assert.strictEqual(made.status, 201, JSON.stringify(made.body))
    return { id: made.body.id as string, secret: made.body.secret as string, headers }
  }

  /** The agent asks to spend above the approval threshold: the request waits for a human. */
  const pendingSpend = async (purpose: string) => {
    const asked = await call("POST", "/v1/spend-requests", {
      token: agentKey,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { amount: 2_500, currency: "USD", merchant: { name: "Acme Cloud", category: "software" }, purpose }
    })
    assert.strictEqual(asked.status, 201, JSON.stringify(asked.body))
    assert.strictEqual(asked.body.status, "pending_approval")
    return asked.body as { id: string; approval: { id: string } }
  }

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    const team = await call("POST", "/teams", { token: owner, body: { name: "Approvers Inc" } })
    assert.strictEqual(team.status, 201, JSON.stringify(team.body))
    teamId = team.body.id
    const key = await call("POST", "/treasury/spending-keys", {
      token: owner,
      body: { name: "research-agent", mode: "test", policy: { approvalThreshold: 1_000 } }
    })
    assert.strictEqual(key.status, 201, JSON.stringify(key.body))
    agentKey = key.body.secret
    const deposit = await call("POST", "/v1/test-helpers/deposits", {
      token: agentKey,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { amount: 50_000, currency: "USD" }
    })
    assert.strictEqual(deposit.status, 201, JSON.stringify(deposit.body))
    await join(approverEmail, "admin")
    await join(memberEmail, "member")
  }, 180_000)

  afterAll(() => outbox?.remove())

  it("an approver logs in with it, lists and approves; a member's is refused; revoked, it stops at once", async () => {
    const request = await pendingSpend("GPU hours")
    const approver = await personalToken(approverEmail, "approver laptop")
    const home = await newHome()
    const cli = { XDG_CONFIG_HOME: home }

    const login = await svc(["login", "--token", approver.secret, "--base-url", server.baseUrl], cli)
    assert.strictEqual(login.code, 0, login.stderr)
    const listed = await svc(["approvals", "list", "--status", "pending", "--json"], cli)
    assert.strictEqual(listed.code, 0, listed.stderr)
    assert.deepStrictEqual(
      JSON.parse(listed.stdout).data.map((a: { id: string }) => a.id),
      [request.approval.id]
    )

    const member = await personalToken(memberEmail, "member laptop")
    const asMember = { SVC_TOKEN: member.secret, SVC_BASE_URL: server.baseUrl }
    const memberList = await svc(["approvals", "list", "--status", "pending", "--json"], asMember)
    assert.strictEqual(memberList.code, 0, "a member may look")
    const memberApprove = await svc(["approvals", "approve", request.approval.id], asMember)
    assert.strictEqual(memberApprove.code, 5, "a member's token acts as a member: the API refuses the decision")
    assert.match(memberApprove.stderr, /\(403\)/u)

    const approved = await svc(["approvals", "approve", request.approval.id, "--note", "ok from the CLI"], cli)
    assert.strictEqual(approved.code, 0, approved.stderr)
    assert.match(approved.stdout, /status\s+approved/u)
    const decided = await call("GET", `/v1/spend-requests/${request.id}`, { token: agentKey })
    assert.strictEqual(decided.body.status, "approved")
    assert.strictEqual(decided.body.approval.note, "ok from the CLI")

    const revoked = await call("DELETE", `/auth/personal-tokens/${approver.id}`, { headers: approver.headers })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    const refused = await svc(["approvals", "list"], cli)
    assert.strictEqual(refused.code, 7, "the revoked token is refused (401)")
    assert.match(refused.stderr, /log in again: svc login/u)
    const relogin = await svc(["login", "--token", approver.secret, "--base-url", server.baseUrl], cli)
    assert.strictEqual(relogin.code, 7, "svc login checks the credential and refuses the revoked one")
    assert.strictEqual((await svc(["approvals", "list"], asMember)).code, 0, "other tokens keep working")
  }, 180_000)
})

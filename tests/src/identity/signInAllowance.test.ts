import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"

const TOKEN = /#token=([A-Za-z0-9_-]{43})/u

/**
 * Sign-in links asked for someone else's address, against the real server on its database: the server trusts the
 * loopback peer as a proxy, so each request's `X-Forwarded-For` is its client address.
 */
describe("sign-in links asked by other clients (the real server)", () => {
  const processes = apiProcesses()
  let server: Running
  let outbox: Awaited<ReturnType<typeof mailOutbox>>

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir, TRUST_PROXY: "127.0.0.1, ::1" })
  }, 120_000)

  afterAll(() => outbox?.remove())

  const askFrom = async (client: string, email: string) => {
    const answer = await fetch(`${server.baseUrl}/auth/sign-in-links`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": client },
      body: JSON.stringify({ email })
    })
    const body = await answer.text()
    assert.strictEqual(answer.status, 202, body)
    assert.deepStrictEqual(JSON.parse(body), {
      object: "sign_in_link_request",
      email,
      localDelivery: `a JSON file in ${outbox.dir}`
    })
  }

  it("a stranger's requests for a person's address never silence the person's own request from elsewhere", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    const me = await fetch(`${server.baseUrl}/users/me`, {
      headers: { authorization: `Bearer ${sessionToken({ email, name: "Ada Lovelace" })}` }
    })
    assert.strictEqual(me.status, 200, await me.text())

    for (let i = 0; i < 6; i++) await askFrom("203.0.113.9", email)
    await askFrom("198.51.100.20", email)

    // Requests are handled in arrival order, so once the person's own link is here every earlier one was handled.
    const token = await outbox.waitFor(email, TOKEN, 5)
    const mailed = (await outbox.messages()).filter((m) => m.to === email)
    assert.strictEqual(mailed.length, 6, "the stranger's client got 5 links mailed, its sixth request none")
    const opened = await fetch(`${server.baseUrl}/auth/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token })
    })
    assert.strictEqual(opened.status, 201, await opened.text())
  })
})

import { afterAll, assert, describe, it, vi } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { smtpServerFake } from "../integrations/SmtpServerFake.ts"
import { inProcessApp, sessionToken } from "../support/InProcessApp.ts"
import { configFrom, SESSION_SECRET } from "../support/Session.ts"

const relay = { username: "svc", password: "relay-secret" }
const scope = Effect.runSync(Scope.make())
const server = await Effect.runPromise(Scope.provide(smtpServerFake(relay), scope))
const env = {
  SESSION_JWT_SECRET: SESSION_SECRET,
  PUBLIC_BASE_URL: "https://svc.example.test",
  SMTP_URL: `smtp://${relay.username}:${relay.password}@127.0.0.1:${server.port}`
}
const app = inProcessApp(await configFrom(env), env)
afterAll(async () => {
  await app.dispose()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

describe("dashboard sign-in mailed through SMTP_URL", () => {
  it("the link goes to the user's address through the SMTP server, from no-reply at the public host", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    assert.strictEqual((await app.call("GET", "/users/me", { token: await sessionToken({ email }) })).status, 200)
    const asked = await app.call("POST", "/auth/sign-in-links", { body: { email } })
    assert.strictEqual(asked.status, 202)
    assert.strictEqual(asked.body.localDelivery, null, "mail is sent: not local mode")

    // The answer does not wait for the SMTP exchange: the mail arrives after it.
    await vi.waitFor(() => assert.lengthOf(server.accepted, 1), { timeout: 10_000 })
    const [mail] = server.accepted
    assert.deepStrictEqual(mail?.to, [email])
    assert.strictEqual(mail?.from, "no-reply@svc.example.test")
    const body = Buffer.from((mail?.data ?? "").split("\r\n\r\n")[1]?.replaceAll("\r\n", "") ?? "", "base64").toString()
    assert.match(body, /https:\/\/svc\.example\.test\/dashboard\/sign-in#token=[A-Za-z0-9_-]{43}/u)
  })

  it("a stalled SMTP server does not hold the answer: known and unknown addresses answer alike", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    assert.strictEqual((await app.call("GET", "/users/me", { token: await sessionToken({ email }) })).status, 200)
    server.behaviour.silentAfterGreeting = true
    try {
      // Three attempts of 15 s each against the stalled server: answering inline would run past this test's 20 s.
      const known = await app.call("POST", "/auth/sign-in-links", { body: { email } })
      const unknown = await app.call("POST", "/auth/sign-in-links", { body: { email: `nobody-${email}` } })
      assert.deepStrictEqual([known.status, unknown.status], [202, 202])
      assert.deepStrictEqual(
        { ...(known.body as object), email: undefined },
        { ...(unknown.body as object), email: undefined }
      )
    } finally {
      server.behaviour.silentAfterGreeting = false
    }
  }, 20_000)

  it("an SMTP_URL that is not smtp:// or smtps:// stops the service at start", async () => {
    const refused = await configFrom({ SMTP_URL: "https://mail.example.test" }).then(
      () => "accepted",
      (error: unknown) => String(error)
    )
    assert.include(refused, "SMTP_URL must start with smtp:// or smtps://")
  })
})

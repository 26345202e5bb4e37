import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it, vi } from "@effect/vitest"
import { inProcessApp, sessionToken } from "../support/InProcessApp.ts"
import { configFrom, SESSION_SECRET } from "../support/Session.ts"

const outbox = await mkdtemp(join(tmpdir(), "sign-in-outbox-"))
const env = {
  SESSION_JWT_SECRET: SESSION_SECRET,
  PUBLIC_BASE_URL: "http://localhost:4000/",
  MAIL_OUTBOX_DIR: outbox,
  DASHBOARD_SESSION_TTL_SECONDS: "900",
  SIGN_IN_LINK_INTERVAL_MS: "20"
}
const app = inProcessApp(await configFrom(env), env)
afterAll(async () => {
  await app.dispose()
  await rm(outbox, { recursive: true, force: true })
})

describe("dashboard sign-in as apps/api is configured from the environment", () => {
  it("MAIL_OUTBOX_DIR receives the link as a JSON file; DASHBOARD_SESSION_TTL_SECONDS sets the session's life", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    const me = await app.call("GET", "/users/me", { token: await sessionToken({ email }) })
    assert.strictEqual(me.status, 200)
    const asked = await app.call("POST", "/auth/sign-in-links", { body: { email } })
    assert.strictEqual(asked.status, 202)
    assert.strictEqual(asked.body.localDelivery, `a JSON file in ${outbox}`, "local mode says where the link goes")

    // The app's own sign-in pass (every SIGN_IN_LINK_INTERVAL_MS) mails it.
    const files = await vi.waitFor(
      async () => {
        const written = await readdir(outbox)
        assert.lengthOf(written, 1)
        return written
      },
      { timeout: 10_000 }
    )
    const message = JSON.parse(await readFile(join(outbox, files[0] ?? ""), "utf8"))
    assert.deepStrictEqual(Object.keys(message).toSorted(), ["subject", "text", "to"])
    assert.strictEqual(message.to, email)
    const token = /http:\/\/localhost:4000\/dashboard\/sign-in#token=([A-Za-z0-9_-]{43})/u.exec(message.text)?.[1]
    assert.isDefined(token, message.text)

    const opened = await app.call("POST", "/auth/sessions", { body: { token } })
    assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
    const cookie = opened.headers.getSetCookie().find((c) => c.startsWith("svc_session=")) ?? ""
    assert.include(cookie.split("; "), "Max-Age=900")
    assert.notInclude(cookie.split("; "), "Secure", "PUBLIC_BASE_URL is on localhost")
  })

  it("without SMTP_URL or MAIL_OUTBOX_DIR (the log mailer) the answer says the link is written to the log", async () => {
    const { MAIL_OUTBOX_DIR: _, ...withoutOutbox } = env
    const local = inProcessApp(await configFrom(withoutOutbox), withoutOutbox)
    try {
      const asked = await local.call("POST", "/auth/sign-in-links", { body: { email: "ada@example.com" } })
      assert.strictEqual(asked.status, 202)
      assert.strictEqual(asked.body.localDelivery, 'the service\'s log (the line "mail (log mailer, local use only)")')
    } finally {
      await local.dispose()
    }
  })

  it("a bad DASHBOARD_SESSION_TTL_SECONDS or SIGN_IN_LINK_INTERVAL_MS is refused, naming the variable", async () => {
    for (const [name, value] of [
      ["DASHBOARD_SESSION_TTL_SECONDS", "soon"],
      ["SIGN_IN_LINK_INTERVAL_MS", "0"],
      ["SIGN_IN_LINK_INTERVAL_MS", "fast"]
    ] as const) {
      const refused = await configFrom({ [name]: value }).then(
        () => "accepted",
        (error: unknown) => String(error)
      )
      assert.include(refused, name, `${name}=${value}`)
    }
    assert.strictEqual((await configFrom({ SIGN_IN_LINK_INTERVAL_MS: "40" })).signInLinkIntervalMs, 40)
  })
})

import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it, vi } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

const outbox = await mkdtemp(join(tmpdir(), "sdk-outbox-"))
const app = inProcessApp({ ...testConfig, mailOutboxDir: outbox })
const BASE = testConfig.publicBaseUrl

interface Sent {
  readonly method: string
  readonly path: string
  readonly authorization: string | null
  readonly csrf: string | null
  readonly credentials: RequestCredentials | undefined
}

/** A browser on the service's origin: it keeps the cookies the service sets and sends them unless told to omit them. */
const jar = new Map<string, string>()
const sent: Array<Sent> = []
vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init)
  const headers = new Headers(request.headers)
  sent.push({
    method: request.method,
    path: new URL(request.url).pathname,
    authorization: headers.get("authorization"),
    csrf: headers.get("x-csrf-token"),
    credentials: init?.credentials
  })
  if (init?.credentials !== "omit" && jar.size > 0) {
    headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "))
  }
  const response = await app.handler(new Request(request, { headers }))
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split("; ")
    const [name = "", value = ""] = pair.split("=")
    if (attributes.includes("Max-Age=0")) jar.delete(name)
    else jar.set(name, value)
  }
  return response
})
afterAll(async () => {
  vi.unstubAllGlobals()
  await app.dispose()
  await rm(outbox, { recursive: true, force: true })
})

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail("expected the call to fail"),
    (error: unknown) => {
      assert.instanceOf(error, ApiError)
      return error as ApiError
    }
  )

/** The token of the newest link mailed to `email`, once the app's sign-in pass has mailed one. */
const mailedToken = (email: string) =>
  vi.waitFor(
    async () => {
      for (const file of (await readdir(outbox)).toSorted().toReversed()) {
        const message = JSON.parse(await readFile(join(outbox, file), "utf8"))
        if (message.to === email) return /#token=([A-Za-z0-9_-]{43})/u.exec(message.text)?.[1] ?? ""
      }
      return assert.fail(`no mail to ${email}`)
    },
    { timeout: 10_000 }
  )

describe("the SDK in a same-origin dashboard (no token: the session cookie and the CSRF token)", () => {
  it("signs in, calls with the cookie and x-csrf-token (never an Authorization header) and signs out", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    const provisioned = await app.call("GET", "/users/me", { token: await sessionToken({ email }) })
    assert.strictEqual(provisioned.status, 200)

    const anonymous = createClient({ baseUrl: BASE })
    const asked = await anonymous.dashboardSignIn.requestLink({ payload: { email } })
    // Local mode (the file mailer): the answer says where the link is written instead of mailed.
    assert.deepStrictEqual(asked, { object: "sign_in_link_request", email, localDelivery: `a JSON file in ${outbox}` })
    const refused = await rejection(anonymous.dashboardSignIn.signIn({ payload: { token: "x".repeat(43) } }))
    assert.deepStrictEqual([refused.status, refused.error], [400, "invalid_sign_in_link"])
    const session = await anonymous.dashboardSignIn.signIn({ payload: { token: await mailedToken(email) } })
    assert.strictEqual(session.user.email, email)
    assert.isTrue(jar.has("svc_session"))

    const dashboard = createClient({ baseUrl: BASE, csrfToken: session.csrfToken })
    sent.length = 0
    const me = await dashboard.me.me()
    assert.strictEqual(me.email, email)
    const team = await dashboard.teams.create({ payload: { name: "Cookie Co" } })
    assert.strictEqual(team.name, "Cookie Co")
    assert.deepStrictEqual(
      (await dashboard.dashboardSession.current()).csrfToken,
      session.csrfToken,
      "a reloaded page learns its CSRF token"
    )
    assert.isAbove(sent.length, 2)
    for (const request of sent) {
      assert.deepStrictEqual(
        { authorization: request.authorization, csrf: request.csrf, credentials: request.credentials },
        { authorization: null, csrf: session.csrfToken, credentials: "same-origin" },
        `${request.method} ${request.path}`
      )
    }

    const withoutCsrf = createClient({ baseUrl: BASE })
    const forbidden = await rejection(withoutCsrf.teams.create({ payload: { name: "Nope" } }))
    assert.deepStrictEqual([forbidden.status, forbidden.error], [403, "csrf_failed"])

    await dashboard.dashboardSession.signOut()
    assert.isFalse(jar.has("svc_session"))
    const after = await rejection(dashboard.me.me())
    assert.strictEqual(after.status, 401)
  })
})

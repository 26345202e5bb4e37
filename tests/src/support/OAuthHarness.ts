import { appInMemory, type ServiceConfig } from "@svc/api"
import { ConfigProvider, Layer, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { sessionToken } from "./Session.ts"

/** The secret test sessions are signed with. */
const SESSION_JWT_SECRET = "oauth-tests-session-secret-0123456789"

/** The service's public base URL in these tests (the OAuth issuer). */
export const BASE = "http://svc.test"

/** The configuration the in-process app runs with. */
const config = (publicBaseUrl = BASE): ServiceConfig => ({
  sessionJwtSecret: Redacted.make(SESSION_JWT_SECRET),
  sessionMaxLifetimeSeconds: 86_400,
  fileKeySecret: Redacted.make("oauth-tests-file-key-secret"),
  cursorSigningKey: Redacted.make("oauth-tests-cursor-signing-key"),
  publicBaseUrl,
  approvalSweepIntervalSeconds: 3600,
  transferAcceptanceTtlSeconds: 7 * 86_400,
  cardAuthToleranceMinor: 0,
  cardAuthDeadlineMs: 1_500,
  cardNumberKey: Redacted.make("test-card-number-key")
})

/** The app on the in-memory adapters with a given OAuth rate limit (high by default so tests are not throttled). */
export const appWith = (oauthPerMinute = 100_000, publicBaseUrl = BASE) =>
  appInMemory(config(publicBaseUrl)).pipe(
    Layer.provide(
      ConfigProvider.layer(ConfigProvider.fromUnknown({ RATE_LIMIT_OAUTH_PER_MINUTE: String(oauthPerMinute) }))
    )
  )

/** Signs a session JWT (HS256) for a user, new by default. */
export const sessionFor = async (userId: string = crypto.randomUUID(), email = "person@example.com") =>
  sessionToken({ sub: userId, email, name: "Person" }, { secret: SESSION_JWT_SECRET })

/** A response: status, headers and the parsed JSON body. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  readonly body: any
}

/** What a request sends: a bearer token or other headers, and a JSON, form or raw body. */
export interface Send {
  readonly token?: string
  readonly json?: unknown
  readonly form?: Record<string, string>
  readonly raw?: string
  readonly headers?: Record<string, string>
}

/** The whole app in process, driven with fetch-style requests. */
export const inProcess = (oauthPerMinute?: number) => {
  const { handler, dispose } = HttpRouter.toWebHandler(
    appWith(oauthPerMinute).pipe(Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
  const call = async (method: string, path: string, send: Send = {}): Promise<Reply> => {
    const headers: Record<string, string> = {}
    if (send.token !== undefined) headers.authorization = `Bearer ${send.token}`
    let body: string | undefined
    if (send.json !== undefined) {
      headers["content-type"] = "application/json"
      body = JSON.stringify(send.json)
    } else if (send.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(send.form).toString()
    } else if (send.raw !== undefined) {
      body = send.raw
    }
    Object.assign(headers, send.headers)
    const response = await handler(
      new Request(`${BASE}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    )
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
  }
  return { call, dispose }
}

/** base64url(SHA-256(verifier)). */
const challengeOf = async (verifier: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url")

/** A fresh PKCE pair. */
export const pkce = async () => {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")
  return { verifier, challenge: await challengeOf(verifier) }
}

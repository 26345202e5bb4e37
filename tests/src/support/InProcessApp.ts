import { appInMemory, appOnPostgres, type ServiceConfig } from "@svc/api"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { SESSION_SECRET, sessionToken as signSession } from "./Session.ts"

/** The configuration in-process apps run with. */
export const testConfig: ServiceConfig = {
  sessionJwtSecret: Redacted.make(SESSION_SECRET),
  sessionMaxLifetimeSeconds: 86_400,
  fileKeySecret: Redacted.make("test-file-key-secret"),
  cursorSigningKey: Redacted.make("test-cursor-signing-key"),
  publicBaseUrl: "http://svc.test",
  approvalSweepIntervalSeconds: 3600,
  transferAcceptanceTtlSeconds: 7 * 86_400,
  cardAuthToleranceMinor: 0,
  cardAuthDeadlineMs: 1_500,
  cardNumberKey: Redacted.make("test-card-number-key")
}

/** Signs a session JWT for a (new by default) user. */
export const sessionToken = async (
  user: { readonly id?: string; readonly email?: string; readonly name?: string } = {},
  secret = SESSION_SECRET
) =>
  signSession(
    { sub: user.id ?? crypto.randomUUID(), email: user.email ?? "person@example.com", name: user.name ?? "Person" },
    { secret }
  )

/** A JSON answer: status, headers and parsed body. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  readonly body: any
}

/** A fetch-style client over an in-process app handler: JSON bodies (strings are sent as they are), parsed answers. */
export const clientOf = (handler: (request: Request) => Promise<Response>) => {
  const call = async (
    method: string,
    path: string,
    options: { readonly token?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.body !== undefined) headers["content-type"] ??= "application/json"
    const response = await handler(
      new Request(`http://svc.test${path}`, {
        method,
        headers,
        ...(options.body === undefined
          ? {}
          : { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) })
      })
    )
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
  }
  /** A request whose answer is kept as bytes (downloads, PDFs, multipart uploads); GET unless `init` says. */
  const rawCall = async (path: string, init: RequestInit = {}) => {
    const response = await handler(new Request(`http://svc.test${path}`, init))
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
  }
  return { call, rawCall }
}

/** The whole HTTP application in process on the in-memory adapters, driven with fetch-style requests; `env` overrides the environment. */
export const inProcessApp = (config: ServiceConfig = testConfig, env: Readonly<Record<string, string>> = {}) => {
  const { handler, dispose } = HttpRouter.toWebHandler(
    appInMemory(config).pipe(
      Layer.provide(HttpServer.layerServices),
      Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromUnknown(env), { asPrimary: true }))
    ),
    { disableLogger: true }
  )
  return { ...clientOf(handler), handler, dispose }
}

/** The app in process on the test's own database connection (the `SqlClient` in context), closed with the scope. */
export const appOnThisDatabase = Effect.gen(function* () {
  const database = yield* Effect.context<SqlClient.SqlClient>()
  const { handler, dispose } = HttpRouter.toWebHandler(
    appOnPostgres(testConfig).pipe(
      Layer.provide(Layer.succeedContext(database)),
      Layer.provide(HttpServer.layerServices)
    ),
    { disableLogger: true }
  )
  yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
  return clientOf(handler)
})

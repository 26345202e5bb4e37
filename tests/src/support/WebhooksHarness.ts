import { createHash, createHmac } from "node:crypto"
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Readiness } from "@svc/adapters-http"
import { appLayer, type Ports, type ServiceConfig } from "@svc/api"
import { ConfigProvider, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { Webhook } from "standardwebhooks"
import { clientOf, testConfig } from "./InProcessApp.ts"

/** The ports the webhook suites run on: every port of the app. */
export type WebhookPorts = Ports

const jwtKey = await generateKeyPair("ES256", { extractable: true })

/** The JWKS configured for bank-aggregator-a. */
const JWKS = JSON.stringify({ keys: [{ ...(await exportJWK(jwtKey.publicKey)), kid: "k1", alg: "ES256" }] })

const whsec = (seed: string) => `whsec_${Buffer.from(createHash("sha256").update(seed).digest()).toString("base64")}`

/** One configured secret per endpoint name (as the env var reads it); the auth-stream shares card-issuing-a's. */
export const SECRETS: Record<string, string> = {
  "banking-a": "banking-a-secret",
  "banking-b": whsec("banking-b"),
  "banking-c": "banking-c-secret",
  "card-issuing-a": whsec("card-issuing-a"),
  "bank-aggregator-b": "bank-aggregator-b-secret",
  "billing-a": "billing-a-raw-secret",
  payments: "whsec_payments_secret",
  "payments-identity": "whsec_payments_identity_secret",
  "payments-issuing": "whsec_payments_issuing_secret",
  "social-premium-payments": "social-token-secret",
  "kyc-a": "kyc-a-secret",
  "kyc-b": "kyc-b-secret",
  "kyc-c": "kyc-c-secret",
  "kyc-d": "kyc-d-secret",
  "chat-interactions": "chat-secret"
}

const envName = (name: string) => `WEBHOOK_SECRET_${name.toUpperCase().replace(/[-/]/g, "_")}`

/** The environment of a test app: every secret, fast workers, a small retry budget, and development mode for webhook destinations (receivers listen on loopback). */
export const baseEnv = (overrides: Record<string, string | undefined> = {}): Record<string, string> => {
  const env: Record<string, string | undefined> = {
    ...Object.fromEntries(
      Object.entries(SECRETS)
        .filter(([name]) => name !== "chat-interactions")
        .map(([name, secret]) => [envName(name), secret])
    ),
    CHAT_SIGNING_SECRET: SECRETS["chat-interactions"],
    BANK_AGGREGATOR_A_JWKS: JWKS,
    INBOX_ALLOWED_IPS: "127.0.0.1,::1",
    WEBHOOK_SIGNING_KEY: "test-webhook-signing-key",
    WEBHOOK_POLL_INTERVAL_MS: "20",
    INBOUND_MAX_ATTEMPTS: "3",
    INBOUND_RETRY_BASE_MS: "20",
    INBOUND_RETRY_MAX_MS: "100",
    WEBHOOK_DELIVERY_SCHEDULE_MS: "50,50,50",
    WEBHOOK_DELIVERY_TIMEOUT_MS: "1000",
    WEBHOOK_DELIVERY_LEASE_MS: "200",
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "true",
    ...overrides
  }
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
}

/** A running app on a loopback port over already-built ports; `stop` kills it (workers and server) at once. */
export interface RunningApp {
  readonly url: string
  readonly stop: Effect.Effect<void>
}

/** Serves the whole application over the given ports context with the given environment (and configuration). */
export const serveApp = (
  ports: Context.Context<never>,
  env: Record<string, string>,
  config: ServiceConfig = testConfig
) =>
  Effect.gen(function* () {
    const app = appLayer(
      config,
      // biome-ignore lint/suspicious/noExplicitAny: the ports context comes from the test layer
      Layer.succeedContext(ports as Context.Context<any>),
      Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
    )
    const served = HttpRouter.serve(app, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
    )
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(served, scope)
    const server = Context.get(context, HttpServer.HttpServer)
    const app_: RunningApp = { url: HttpServer.formatAddress(server.address), stop: Scope.close(scope, Exit.void) }
    yield* Effect.addFinalizer(() => app_.stop)
    return app_
  })

/** Runs `f` against an app served over the test's context with `env`, stopped when `f` ends. */
export const withApp = <A, E2, R>(
  env: Record<string, string>,
  f: (app: RunningApp) => Effect.Effect<A, E2, R>,
  config: ServiceConfig = testConfig
) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<never>()
    const app = yield* serveApp(context, env, config)
    return yield* f(app)
  }).pipe(Effect.scoped)

/** The fetch-style client of the in-process tests (`call`, `rawCall`), sending its requests to a served app. */
export const clientOver = (app: RunningApp) =>
  clientOf((request) => {
    const url = new URL(request.url)
    return fetch(`${app.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      duplex: "half"
    } as RequestInit)
  })

/** A JSON answer. */
export interface Answer {
  readonly status: number
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  readonly body: any
}

/** POSTs raw bytes to the app. */
export const post = (app: RunningApp, path: string, body: string, headers: Record<string, string> = {}) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${app.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  })

/** Calls a JSON route with an optional bearer token. */
export const call = (app: RunningApp, method: string, path: string, token?: string, body?: unknown) =>
  Effect.promise(async (): Promise<Answer> => {
    const headers: Record<string, string> = {}
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers["content-type"] = "application/json"
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  })

const hmacHex = (alg: string, key: string, data: string) => createHmac(alg, key).update(data).digest("hex")
const now = () => Math.floor(Date.now() / 1000)

/** Options for signing: another secret, a timestamp (unix seconds), or a Standard Webhooks message id. */
export interface SignOptions {
  readonly secret?: string
  readonly timestamp?: number
  readonly id?: string
}

/** Headers the provider behind `endpoint` would send for `body`, using its own scheme (Standard Webhooks via the npm library). */
export const sign = async (
  endpoint: string,
  body: string,
  options: SignOptions = {}
): Promise<Record<string, string>> => {
  const secret =
    options.secret ?? SECRETS[endpoint === "card-issuing-a/auth-stream" ? "card-issuing-a" : endpoint] ?? ""
  const t = options.timestamp ?? now()
  switch (endpoint) {
    case "banking-a":
      return { "banking-a-signature": hmacHex("sha256", secret, body) }
    case "banking-c":
      return { "x-banking-c-signature": createHmac("sha1", secret).update(body).digest("base64") }
    case "banking-b":
    case "card-issuing-a":
    case "card-issuing-a/auth-stream":
    case "billing-a": {
      const id = options.id ?? `msg_${crypto.randomUUID()}`
      const hook = endpoint === "billing-a" ? new Webhook(secret, { format: "raw" }) : new Webhook(secret)
      return {
        "webhook-id": id,
        "webhook-timestamp": String(t),
        "webhook-signature": hook.sign(id, new Date(t * 1000), body)
      }
    }
    case "bank-aggregator-a": {
      const jwt = await new SignJWT({ request_body_sha256: createHash("sha256").update(body).digest("hex") })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setIssuedAt(t)
        .sign(options.secret === undefined ? jwtKey.privateKey : (await generateKeyPair("ES256")).privateKey)
      return { "bank-aggregator-a-verification": jwt }
    }
    case "bank-aggregator-b":
      return { "bank-aggregator-b-signature": `t=${t},v1=${hmacHex("sha256", secret, `${t}.${body}`)}` }
    case "payments":
    case "payments-identity":
    case "payments-issuing":
      return { "payments-signature": `t=${t},v1=${hmacHex("sha256", secret, `${t}.${body}`)}` }
    case "social-premium-payments":
      return { "social-premium-secret-token": secret }
    case "kyc-a":
      return { "kyc-a-payload-digest": hmacHex("sha256", secret, body), "kyc-a-payload-digest-alg": "HMAC_SHA256_HEX" }
    case "kyc-b":
      return { "kyc-b-hmac-signature": hmacHex("sha256", secret, body) }
    case "kyc-c":
      return { "kyc-c-signature": `t=${t},v1=${hmacHex("sha256", secret, `${t}.${body}`)}` }
    case "kyc-d":
      return { "kyc-d-signature": hmacHex("sha256", secret, body) }
    case "chat-interactions":
      return {
        "x-chat-signature": `v0=${hmacHex("sha256", secret, `v0:${t}:${body}`)}`,
        "x-chat-request-timestamp": String(t)
      }
    default:
      return {}
  }
}

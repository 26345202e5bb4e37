import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { ChatInteractionsWebhook, InboundWebhooks } from "@svc/domain"
import { ConfigProvider, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import fc from "fast-check"
import { CHAT_APP_UNREACHABLE_ENV } from "../integrations/ChatPlatformFake.ts"
import { MAIL_APP_UNREACHABLE_ENV } from "../integrations/MailProviderServer.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { SESSION_SECRET, sessionToken, unsignedToken } from "../support/Session.ts"
import { bodyFor, forgedCursor, nastyParam, type Operation, operationsOf, valueFor } from "./OpenApiArbitraries.ts"

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123)
const RUNS = Number(process.env.FUZZ_RUNS ?? 25)

const webhookSecrets = Object.fromEntries(
  [...InboundWebhooks, ChatInteractionsWebhook].map((w) => [w.secretEnv, `whsec_${randomBytes(32).toString("base64")}`])
)
const ENV = {
  RATE_LIMIT_V1_PER_MINUTE: "1000000",
  RATE_LIMIT_OAUTH_PER_MINUTE: "1000000",
  ...webhookSecrets,
  ...CHAT_APP_UNREACHABLE_ENV,
  ...MAIL_APP_UNREACHABLE_ENV
}

/** What no answer may contain: stack frames, SQL, server file paths. Secrets are added once they exist. */
const LEAKS = [
  /\n\s+at /u,
  /SELECT /u,
  /INSERT /u,
  /syntax error/u,
  /relation "/u,
  /\/work\//u,
  /node_modules/u,
  /\.ts:\d/u
]

const database = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

describe(`fuzz of every operation in the served OpenAPI document (${database}, seed ${SEED}, ${RUNS} runs each)`, () => {
  const runtime = ManagedRuntime.make(TestDatabase)
  let handler: (request: Request) => Promise<Response>
  let dispose: () => Promise<void> = async () => undefined
  let operations: Array<Operation> = []
  // biome-ignore lint/suspicious/noExplicitAny: the document is walked structurally
  let schemas: Record<string, any> = {}
  /** No credential, garbage ones, and (once set up) valid keys of another team. */
  const credentials: Array<string | undefined> = [
    undefined,
    "",
    "garbage",
    "a.b.c",
    "svc_test_unknown",
    "svcteam_x",
    "x".repeat(20_000),
    unsignedToken(),
    sessionToken({}, { secret: "another-secret" }),
    sessionToken({}, { expiresInSeconds: -60 }),
    sessionToken({ sub: "not-a-uuid" }),
    sessionToken({ sub: "00000000-0000-0000-0000-000000000000", email: "\u0000" }),
    sessionToken({ email: 42, name: { nested: ["x"] } }),
    sessionToken({ exp: 1e300 }),
    sessionToken({ sub: undefined }),
    sessionToken({ email: "a".repeat(10_000), name: "\ud800" })
  ]
  /** The session and spending key of the team that owns the known ids. */
  const ownCredentials: Array<string> = []
  const ids: Array<string> = []
  const secrets: Array<string> = [
    SESSION_SECRET,
    ...Object.values(webhookSecrets),
    CHAT_APP_UNREACHABLE_ENV.CHAT_CLIENT_SECRET,
    MAIL_APP_UNREACHABLE_ENV.MAIL_CLIENT_SECRET
  ]
  for (const secret of [testConfig.fileKeySecret, testConfig.cursorSigningKey]) secrets.push(Redacted.value(secret))

  const call = async (
    method: string,
    path: string,
    init: { token?: string | undefined; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {}
  ) => {
    const headers: Record<string, string> = { ...init.headers }
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`
    const response = await handler(
      new Request(`http://svc.test${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: init.body })
      })
    )
    return { status: response.status, headers: response.headers, text: await response.text() }
  }
  const json = async (method: string, path: string, token: string, body: unknown, status = 201) => {
    const answer = await call(method, path, {
      token,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(answer.status, status, `${method} ${path}: ${answer.text}`)
    return JSON.parse(answer.text)
  }

  beforeAll(async () => {
    const context = await runtime.runPromise(Effect.context<SqlClient.SqlClient>())
    ;({ handler, dispose } = HttpRouter.toWebHandler(
      appOnPostgres(testConfig).pipe(
        Layer.provide(Layer.succeedContext(context)),
        Layer.provide(HttpServer.layerServices),
        Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromUnknown(ENV), { asPrimary: true }))
      ),
      { disableLogger: true }
    ))
    const document = JSON.parse((await call("GET", "/openapi.json")).text)
    operations = operationsOf(document)
    schemas = document.components?.schemas ?? {}

    const ownerA = sessionToken({ email: "a@fuzz.test" })
    const ownerB = sessionToken({ email: "b@fuzz.test" })
    await json("POST", "/teams", ownerA, { name: "Team A" })
    await json("POST", "/teams", ownerB, { name: "Team B" })
    const keyA = await json("POST", "/treasury/spending-keys", ownerA, {
      name: "agent",
      mode: "test",
      policy: { approvalThreshold: 500 }
    })
    const keyB = await json("POST", "/treasury/spending-keys", ownerB, { name: "agent", mode: "test", policy: {} })
    const teamKeyB = await json("POST", "/treasury/team-api-keys", ownerB, {
      name: "ops",
      mode: "test",
      scopes: ["spend.read", "spend.write", "accounts.read"]
    })
    const apiKeyB = await json("POST", "/api-keys", ownerB, { name: "cli" })
    await json("POST", "/v1/test-helpers/deposits", keyA.secret, { amount: 100_000, currency: "USD" })
    const pending = await json("POST", "/v1/spend-requests", keyA.secret, {
      amount: 900,
      currency: "USD",
      merchant: { name: "OpenAI", category: "software" },
      purpose: "fuzz fixture"
    })
    const endpoint = await json("POST", "/treasury/webhook-endpoints", ownerA, {
      url: "https://example.com/hook",
      eventTypes: ["*"]
    })
    ownCredentials.push(ownerA, keyA.secret)
    credentials.push(keyB.secret, teamKeyB.secret, apiKeyB.secret)
    secrets.push(keyA.secret, keyB.secret, teamKeyB.secret, apiKeyB.secret, endpoint.secret)
    ids.push(keyA.id, keyB.id, pending.id, pending.accountId, pending.approval.id, endpoint.id, teamKeyB.id, apiKeyB.id)
  }, 120_000)

  afterAll(async () => {
    await dispose()
    await runtime.dispose()
  })

  /** One generated request for `op`, as method, path with query, credential, headers and body. */
  const requestFor = (op: Operation) => {
    const path = fc.record(
      Object.fromEntries(
        op.parameters
          .filter((p) => p.in === "path")
          .map((p) => [p.name, fc.oneof(fc.constantFrom(...ids), nastyParam)] as const)
      )
    )
    const query = fc.record(
      Object.fromEntries(
        op.parameters
          .filter((p) => p.in === "query")
          .map(
            (p) =>
              [
                p.name,
                fc.oneof(
                  {
                    weight: 3,
                    arbitrary:
                      p.name === "limit"
                        ? fc.integer({ min: 1, max: 100 }).map(String)
                        : valueFor(p.schema, { schemas, ids }).map((v) => encodeURIComponent(String(v)))
                  },
                  { weight: 1, arbitrary: p.name === "cursor" ? forgedCursor : nastyParam }
                )
              ] as const
          )
      ),
      { requiredKeys: [] }
    )
    const headerNames = op.parameters.filter((p) => p.in === "header").map((p) => p.name)
    const headers = fc.record(
      Object.fromEntries(
        [...new Set([...headerNames, "idempotency-key"])].map(
          (name) =>
            [
              name,
              fc.option(
                fc.oneof(
                  { weight: 4, arbitrary: fc.uuid() },
                  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
                  { weight: 1, arbitrary: fc.constant("x".repeat(300)) }
                ),
                { freq: 6, nil: undefined }
              )
            ] as const
        )
      )
    )
    const contentType = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...op.contentTypes, "application/json") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          undefined
        )
      }
    )
    const body =
      op.bodySchema === undefined
        ? fc.option(fc.constantFrom('{"a":1}', "x"), { nil: undefined })
        : bodyFor(op.bodySchema, { schemas, ids })
    return fc.record({
      credential: fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(...credentials) },
        { weight: 3, arbitrary: fc.constantFrom(...ownCredentials) }
      ),
      path,
      query,
      headers,
      contentType,
      body
    })
  }

  it("has operations to fuzz", () => {
    assert.isAbove(operations.length, 30)
  })

  it("no input gets a 5xx, a non-JSON body, an error without a code, or a leak", async () => {
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (req) => {
          const pathname = op.path.replace(/\{(\w+)\}/gu, (_, name: string) => req.path[name] ?? "x")
          const search = Object.entries(req.query)
            .map(([k, v]) => `${k}=${v}`)
            .join("&")
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter((entry): entry is [string, string] => entry[1] !== undefined)
          )
          if (req.contentType !== undefined) headers["content-type"] = req.contentType
          const answer = await call(op.method, search === "" ? pathname : `${pathname}?${search}`, {
            token: req.credential,
            headers,
            ...(req.body === undefined || op.method === "GET" ? {} : { body: req.body })
          })
          const where = `${op.method} ${op.path} answered ${answer.status}: ${answer.text.slice(0, 500)}`
          assert.isBelow(answer.status, 500, where)
          if (answer.text !== "") {
            const parsed = JSON.parse(answer.text)
            if (answer.status >= 400) assert.isString(parsed.error, where)
          }
          for (const leak of LEAKS) assert.notMatch(answer.text, leak, where)
          for (const secret of secrets) assert.notInclude(answer.text, secret, `${where}: a secret leaked`)
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true }
      )
    }
  }, 600_000)
})

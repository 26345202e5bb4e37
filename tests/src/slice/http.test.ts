import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { PortsMemory } from "@svc/adapters-memory"
import { appInMemory, appLayer, type ServiceConfig } from "@svc/api"
import { ChatInteractionsWebhook, InboundWebhooks } from "@svc/domain"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { configFrom, SESSION_SECRET, sessionToken, unsignedToken } from "../support/Session.ts"

const BASE = "http://svc.test"

const inProcess = (layer: ReturnType<typeof appInMemory>) =>
  HttpRouter.toWebHandler(layer.pipe(Layer.provide(HttpServer.layerServices)), { disableLogger: true })

let config: ServiceConfig
let app: ReturnType<typeof inProcess>

beforeAll(async () => {
  config = await configFrom({ SESSION_JWT_SECRET: SESSION_SECRET, PUBLIC_BASE_URL: BASE })
  app = inProcess(appInMemory(config))
})
afterAll(() => app.dispose())

interface Sent {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

const send = async (
  method: string,
  path: string,
  options: {
    readonly token?: string
    readonly json?: unknown
    readonly body?: string
    readonly contentType?: string
  } = {}
): Promise<Sent> => {
  const headers: Record<string, string> = {}
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  const body = options.json !== undefined ? JSON.stringify(options.json) : options.body
  if (body !== undefined) headers["content-type"] = options.contentType ?? "application/json"
  const response = await app.handler(
    new Request(`${BASE}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  )
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? {} : JSON.parse(text) }
}

const assertError = (sent: Sent, status: number, error: string) => {
  assert.strictEqual(sent.status, status, JSON.stringify(sent.body))
  assert.strictEqual(sent.body.error, error)
  assert.strictEqual(sent.body.code, status)
  assert.isString(sent.body.message)
  assert.notMatch(JSON.stringify(sent.body), /at .*\.ts:\d+|stack|SELECT|INSERT|Error:/u, "nothing internal leaks")
}

const assertUnauthorized = (sent: Sent) => {
  assertError(sent, 401, "unauthorized")
  assert.match(sent.headers.get("www-authenticate") ?? "", /^Bearer\b/u)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u

describe("teams and users over HTTP (in process)", () => {
  it("POST /teams answers 201 with the team, the caller as owner", async () => {
    const created = await send("POST", "/teams", { token: sessionToken(), json: { name: "Acme" } })
    assert.strictEqual(created.status, 201)
    const { id, createdAt, ...rest } = created.body
    assert.match(String(id), UUID)
    assert.strictEqual(new Date(String(createdAt)).toISOString(), createdAt)
    assert.deepStrictEqual(rest, { object: "team", name: "Acme", baseCurrency: "USD", role: "owner" })
  })

  it("GET /teams lists only the caller's teams, newest first", async () => {
    const alice = sessionToken()
    const bob = sessionToken({ email: "bob@example.com" })
    const first = await send("POST", "/teams", { token: alice, json: { name: "First" } })
    const second = await send("POST", "/teams", { token: alice, json: { name: "Second", baseCurrency: "EUR" } })
    assert.isTrue(String(second.body.id) > String(first.body.id), "time-ordered ids break a tie within one millisecond")
    await send("POST", "/teams", { token: bob, json: { name: "Bob's" } })
    const listed = await send("GET", "/teams", { token: alice })
    assert.strictEqual(listed.status, 200)
    assert.deepStrictEqual(listed.body.data, [second.body, first.body])
    assert.deepStrictEqual((await send("GET", "/teams", { token: sessionToken() })).body, {
      data: [],
      meta: { cursor: null, hasNextPage: false, hasPreviousPage: false }
    })
    const page1 = await send("GET", "/teams?limit=1", { token: alice })
    const meta1 = page1.body.meta as { readonly cursor: string; readonly hasNextPage: boolean }
    assert.deepStrictEqual(page1.body.data, [second.body])
    assert.isTrue(meta1.hasNextPage)
    const page2 = await send("GET", `/teams?limit=1&cursor=${meta1.cursor}`, { token: alice })
    assert.deepStrictEqual(page2.body.data, [first.body])
    assert.deepStrictEqual(page2.body.meta, { cursor: null, hasNextPage: false, hasPreviousPage: true })
  })

  it("GET /users/me provisions the user, shows the current team and a stable per-team file key", async () => {
    const sub = crypto.randomUUID()
    const token = sessionToken({ sub, email: "grace@example.com", name: "Grace Hopper" })
    const fresh = await send("GET", "/users/me", { token })
    assert.strictEqual(fresh.status, 200)
    assert.deepStrictEqual(fresh.body, {
      id: sub,
      email: "grace@example.com",
      fullName: "Grace Hopper",
      teamId: null,
      team: null,
      fileKey: null,
      locale: null,
      timezone: null,
      timezoneAutoSync: null,
      weekStartsOnMonday: null,
      timeFormat: null,
      dateFormat: null
    })

    const teamA = await send("POST", "/teams", { token, json: { name: "A" } })
    const meA1 = await send("GET", "/users/me", { token })
    const meA2 = await send("GET", "/users/me", { token: sessionToken({ sub, email: "grace@example.com" }) })
    assert.strictEqual(meA1.body.teamId, teamA.body.id)
    assert.isString(meA1.body.fileKey)
    assert.isAtLeast(String(meA1.body.fileKey).length, 16)
    assert.strictEqual(meA2.body.fileKey, meA1.body.fileKey, "deterministic for the team")

    const teamB = await send("POST", "/teams", { token, json: { name: "B" } })
    const meB = await send("GET", "/users/me", { token })
    assert.strictEqual(meB.body.teamId, teamB.body.id)
    assert.notStrictEqual(meB.body.fileKey, meA1.body.fileKey, "another team has another key")

    const noName = await send("GET", "/users/me", { token: sessionToken({ name: undefined }) })
    assert.strictEqual(noName.body.fullName, null)
  })
})

describe("session authentication", () => {
  const now = Math.floor(Date.now() / 1000)
  const refused: ReadonlyArray<readonly [string, () => string | undefined]> = [
    ["no Authorization header", () => undefined],
    ["an empty bearer token", () => ""],
    ["garbage", () => "not-a-token"],
    ["an expired token", () => sessionToken({ exp: now - 60 })],
    ["a token valid for longer than a session may live", () => sessionToken({ exp: now + 30 * 86_400 })],
    ["a token signed with another secret", () => sessionToken({}, { secret: "another-secret-0123456789abcdef-xyz" })],
    ["alg none with an empty signature", () => unsignedToken()],
    ["alg none with a made-up signature", () => unsignedToken("c2lnbmF0dXJl")],
    ["a token without sub", () => sessionToken({ sub: undefined })],
    ["a token without email", () => sessionToken({ email: undefined })],
    ["a token without exp", () => sessionToken({ exp: undefined })],
    ["a sub that is not a UUID", () => sessionToken({ sub: "user-42" })],
    ["a sub of the wrong type", () => sessionToken({ sub: 42 })],
    ["a tampered payload", () => tamper(sessionToken())]
  ]

  for (const [what, token] of refused) {
    it(`refuses ${what} with 401 and WWW-Authenticate`, async () => {
      const t = token()
      assertUnauthorized(await send("GET", "/users/me", t === undefined ? {} : { token: t }))
      assertUnauthorized(
        await send("POST", "/teams", { ...(t === undefined ? {} : { token: t }), json: { name: "Nope" } })
      )
      assertUnauthorized(await send("GET", "/teams", t === undefined ? {} : { token: t }))
    })
  }

  it("reads the session lifetime from SESSION_MAX_LIFETIME_SECONDS", async () => {
    assert.strictEqual((await configFrom({ SESSION_MAX_LIFETIME_SECONDS: "3600" })).sessionMaxLifetimeSeconds, 3600)
  })

  it("accepts a token valid for up to the session lifetime (24 hours by default)", async () => {
    const token = sessionToken({ exp: Math.floor(Date.now() / 1000) + 86_400 - 60 })
    assert.strictEqual((await send("GET", "/users/me", { token })).status, 200)
  })

  it("during a rotation accepts tokens of SESSION_JWT_PREVIOUS_SECRET too, and only while it is set", async () => {
    const previous = "the-secret-before-rotation-0123456789"
    const rotating = inProcess(
      appInMemory(
        await configFrom({
          SESSION_JWT_SECRET: SESSION_SECRET,
          SESSION_JWT_PREVIOUS_SECRET: previous,
          PUBLIC_BASE_URL: BASE
        })
      )
    )
    try {
      const me = (token: string) =>
        rotating.handler(new Request(`${BASE}/users/me`, { headers: { authorization: `Bearer ${token}` } }))
      assert.strictEqual((await me(sessionToken({}, { secret: previous }))).status, 200)
      assert.strictEqual((await me(sessionToken())).status, 200)
      assert.strictEqual((await me(sessionToken({}, { secret: "neither-secret-0123456789abcdef" }))).status, 401)
    } finally {
      await rotating.dispose()
    }
    assertUnauthorized(await send("GET", "/users/me", { token: sessionToken({}, { secret: previous }) }))
  })

  it("accepts only the Bearer scheme", async () => {
    const response = await app.handler(
      new Request(`${BASE}/users/me`, { headers: { authorization: `Basic ${sessionToken()}` } })
    )
    assert.strictEqual(response.status, 401)
  })
})

const tamper = (token: string): string => {
  const [header, payload, signature] = token.split(".") as [string, string, string]
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString())
  const forged = Buffer.from(JSON.stringify({ ...claims, email: "mallory@example.com" })).toString("base64url")
  return `${header}.${forged}.${signature}`
}

describe("/v1 refuses credentials of other families", () => {
  for (const path of ["/v1/accounts", `/v1/accounts/${crypto.randomUUID()}`, "/v1/balance"]) {
    it(`GET ${path} refuses a session JWT, an OAuth-looking token and nothing at all`, async () => {
      assertUnauthorized(await send("GET", path, { token: sessionToken() }))
      assertUnauthorized(await send("GET", path, { token: "mid_access_token_x" }))
      assertUnauthorized(await send("GET", path, { token: "svc_not_a_real_key" }))
      assertUnauthorized(await send("GET", path))
    })
  }
})

describe("request errors are JSON bodies", () => {
  it("validation failures name every invalid field", async () => {
    const token = sessionToken()
    const cases: ReadonlyArray<readonly [unknown, ReadonlyArray<string>]> = [
      [{}, ["name"]],
      [{ name: "" }, ["name"]],
      [{ name: 42 }, ["name"]],
      [{ name: "  padded  " }, ["name"]],
      [{ name: "x".repeat(201) }, ["name"]],
      [{ name: "Acme", baseCurrency: "usd" }, ["baseCurrency"]],
      [{ name: "Acme", extra: true }, ["extra"]],
      [{ name: 1, baseCurrency: 2 }, ["name", "baseCurrency"]],
      [[], ["body"]],
      ["a string", ["body"]]
    ]
    for (const [json, fields] of cases) {
      const sent = await send("POST", "/teams", { token, json })
      assertError(sent, 400, "validation_failed")
      const details = sent.body.details as ReadonlyArray<{ path: string; message: string }>
      assert.deepStrictEqual(
        [...new Set(details.map((d) => d.path))].toSorted(),
        [...fields].toSorted(),
        JSON.stringify(json)
      )
      for (const d of details) assert.isNotEmpty(d.message)
    }
  })

  it("malformed JSON is 400 invalid_json", async () => {
    for (const body of ["{", '{"name": "x",}', "nul", "{'name': 'x'}"]) {
      assertError(await send("POST", "/teams", { token: sessionToken(), body }), 400, "invalid_json")
    }
  })

  it("a body over 1 MiB is 413", async () => {
    const body = JSON.stringify({ name: "x".repeat(1024 * 1024) })
    assertError(await send("POST", "/teams", { token: sessionToken(), body }), 413, "payload_too_large")
  })

  it("a body that is not JSON is 415", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
      const sent = await send("POST", "/teams", { token: sessionToken(), body: "name=Acme", contentType })
      assertError(sent, 415, "unsupported_media_type")
    }
  })

  it("an unknown route is 404 JSON", async () => {
    assertError(await send("GET", "/no/such/route"), 404, "not_found")
    assertError(await send("DELETE", "/teams"), 404, "not_found")
  })

  it("every answer carries a request id: the client's own when well formed, a new one otherwise", async () => {
    const withId = (id: string | undefined, path: string) =>
      app.handler(new Request(`${BASE}${path}`, id === undefined ? {} : { headers: { "x-request-id": id } }))
    const echoed = await withId("trace-7.a_b:c", "/health")
    assert.strictEqual(echoed.status, 200)
    assert.strictEqual(echoed.headers.get("x-request-id"), "trace-7.a_b:c")
    const refused = await withId("trace-8", "/users/me")
    assert.strictEqual(refused.status, 401)
    assert.strictEqual(refused.headers.get("x-request-id"), "trace-8")
    const fresh = [await withId(undefined, "/health"), await withId(undefined, "/no/such/route")]
    const ids = fresh.map((r) => r.headers.get("x-request-id") ?? "")
    for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/u)
    assert.notStrictEqual(ids[0], ids[1])
    for (const bad of ["has space", "x".repeat(129), "semi;colon"]) {
      const replaced = (await withId(bad, "/health")).headers.get("x-request-id") ?? ""
      assert.match(replaced, /^[0-9a-f-]{36}$/u, `${bad} is not echoed`)
    }
  })
})

/** Routes that take no credential: health, OAuth client endpoints (RFC 6749/7591/7009), discovery, the signed inbound webhooks, the integrations' OAuth callbacks, dashboard sign-in, the changelog and the desktop updater. */
const isPublic = (method: string, path: string) =>
  path.startsWith("/health") ||
  path === "/changelog" ||
  path.startsWith("/desktop/") ||
  [...InboundWebhooks, ChatInteractionsWebhook].some((webhook) => webhook.path === path) ||
  path.startsWith("/.well-known/") ||
  // dashboard sign-in: asking for a link and exchanging it for the session cookie
  path === "/auth/sign-in-links" ||
  path === "/auth/sessions" ||
  ["/oauth/register", "/oauth/token", "/oauth/revoke"].includes(path) ||
  (path === "/oauth/authorize" && method === "get") ||
  path === "/invoice-payments/payment-intent" ||
  // the integrations' OAuth callbacks are authorised by their encrypted or signed `state`
  (path.startsWith("/apps/") && path.endsWith("/oauth-callback")) ||
  // file routes are authorised by the team file key `fk` in the query, not a bearer credential
  path.startsWith("/files/")

describe("service documents and health", () => {
  it("/openapi.json is OpenAPI 3.1.0, version 0.0.1, with errors and security on every route", async () => {
    const response = await app.handler(new Request(`${BASE}/openapi.json`))
    assert.strictEqual(response.status, 200)
    const doc = (await response.json()) as {
      openapi: string
      info: { version: string }
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: Array<unknown> }>>
    }
    assert.strictEqual(doc.openapi, "3.1.0")
    assert.strictEqual(doc.info.version, "0.0.1")
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op }))
    )
    for (const slicePath of ["/teams", "/users/me", "/v1/accounts", "/v1/accounts/{id}", "/v1/balance", "/health"]) {
      assert.isTrue(
        operations.some((o) => o.path === slicePath),
        `${slicePath} is documented`
      )
    }
    for (const { path, method, op } of operations) {
      const statuses = Object.keys(op.responses).map(Number)
      assert.isTrue(
        statuses.some((s) => s >= 400),
        `${method} ${path} lists its error responses`
      )
      if (isPublic(method, path)) {
        assert.isTrue(op.security === undefined || op.security.length === 0, `${method} ${path} is public`)
        continue
      }
      const security = path.startsWith("/v1/")
        ? [{ bearer: [] }]
        : path === "/auth/session" || path.startsWith("/auth/personal-tokens")
          ? [{ sessionCookie: [] }]
          : [{ bearer: [] }, { sessionCookie: [] }]
      assert.deepStrictEqual(op.security, security, `${method} ${path} lists its security`)
      assert.include(statuses, 401, `${method} ${path} documents 401`)
    }
  })

  it("every list route answers the {data, meta} envelope and takes ?cursor=&limit= (CONTRACT.md)", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: walking an OpenAPI document
    const doc = (await send("GET", "/openapi.json")).body as any
    // biome-ignore lint/suspicious/noExplicitAny: walking an OpenAPI document
    const resolve = (schema: any): any =>
      schema?.$ref === undefined ? schema : resolve(doc.components.schemas[schema.$ref.split("/").pop()])
    const lists = Object.entries(doc.paths).flatMap(([path, ops]) => {
      // biome-ignore lint/suspicious/noExplicitAny: walking an OpenAPI document
      const get = (ops as any).get
      const body = resolve(get?.responses?.["200"]?.content?.["application/json"]?.schema)
      return body?.properties?.data !== undefined && resolve(body.properties.data).type === "array"
        ? [{ path, get, body }]
        : []
    })
    assert.isAtLeast(lists.length, 10)
    // SPEC.md gives the tags list as `{data}` alone; /search answers its best `limit` hits, ranked, not a page (ADR 0030).
    for (const { path, get, body } of lists.filter((list) => list.path !== "/tags" && list.path !== "/search")) {
      assert.property(body.properties, "meta", `${path} answers meta`)
      const params = (get.parameters ?? []).map((p: { name: string }) => p.name)
      assert.includeMembers(params, ["cursor", "limit"], `${path} takes cursor and limit`)
    }
  })

  it("/docs is an HTML page", async () => {
    const response = await app.handler(new Request(`${BASE}/docs`))
    assert.strictEqual(response.status, 200)
    assert.match(response.headers.get("content-type") ?? "", /text\/html/u)
    assert.match(await response.text(), /<html/iu)
  })

  it("/health and /health/ready answer while the store answers", async () => {
    assert.deepStrictEqual((await send("GET", "/health")).body, { status: "ok" })
    assert.deepStrictEqual(await send("GET", "/health/ready").then((s) => [s.status, s.body]), [
      200,
      { status: "ready" }
    ])
  })

  it("/health/ready answers 503 when the readiness check fails, while /health stays up", async () => {
    const failing = Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(false) }] })
    const down = inProcess(appLayer(config, PortsMemory, failing))
    try {
      const ready = await down.handler(new Request(`${BASE}/health/ready`))
      assert.strictEqual(ready.status, 503)
      const body = (await ready.json()) as Record<string, unknown>
      assert.strictEqual(body.error, "service_unavailable")
      assert.strictEqual(body.code, 503)
      assert.strictEqual((await down.handler(new Request(`${BASE}/health`))).status, 200)
    } finally {
      await down.dispose()
    }
  })
})

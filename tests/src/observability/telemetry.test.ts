import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { apiProcesses, freePort, type Running } from "../support/ApiProcess.ts"
import { sessionToken } from "../support/InProcessApp.ts"
import { sampleValue } from "./Prometheus.ts"

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly boolValue?: boolean
}

/** A span as the OTLP/JSON export carries it, with its attributes flattened to strings. */
interface ExportedSpan {
  readonly name: string
  readonly kind: number
  readonly attributes: Record<string, string>
}

/** A local OTLP/HTTP collector: it keeps every span posted to /v1/traces and the headers the exporter sent. */
const collector = () => {
  const spans: Array<ExportedSpan> = []
  const headers: Array<Record<string, string | Array<string> | undefined>> = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        headers.push(req.headers)
        const parsed = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: OtlpValue }> }
            scopeSpans: Array<{
              spans: Array<{ name: string; kind: number; attributes: Array<{ key: string; value: OtlpValue }> }>
            }>
          }>
        }
        for (const resource of parsed.resourceSpans) {
          const resourceAttributes = flatten(resource.resource.attributes)
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) {
              spans.push({
                name: span.name,
                kind: span.kind,
                attributes: {
                  ...flatten(span.attributes),
                  "resource.service.name": resourceAttributes["service.name"] ?? ""
                }
              })
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  const listening = new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  )
  return { spans, headers, listening, close: () => new Promise((resolve) => server.close(resolve)) }
}

const flatten = (attributes: ReadonlyArray<{ key: string; value: OtlpValue }>): Record<string, string> =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [key, String(value.stringValue ?? value.intValue ?? value.boolValue ?? "")])
  )

/** Waits (real time: the server is another process) until `found` holds, or fails after 20 s. */
const eventually = async <A>(what: string, found: () => A | undefined): Promise<A> => {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = found()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const METRICS_TOKEN = `metrics-${crypto.randomUUID()}`

describe("traces and metrics of the real server process", () => {
  const processes = apiProcesses()
  const otlp = collector()
  let server: Running

  beforeAll(async () => {
    server = await processes.start({
      OTEL_EXPORTER_OTLP_ENDPOINT: await otlp.listening,
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=collector-secret",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      METRICS_TOKEN
    })
  }, 120_000)

  afterAll(async () => {
    await otlp.close()
  })

  it("exports a server span per request with its route and status, worker step spans, and no credentials", async () => {
    assert.strictEqual((await fetch(`${server.baseUrl}/health`)).status, 200)
    const owner = await sessionToken({ email: `owner-${crypto.randomUUID()}@acme.test` })
    const created = await fetch(`${server.baseUrl}/teams`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Traced" })
    })
    assert.strictEqual(created.status, 201)
    const missing = crypto.randomUUID()
    const read = await fetch(`${server.baseUrl}/treasury/webhook-endpoints/${missing}`, {
      headers: { authorization: `Bearer ${owner}` }
    })
    assert.strictEqual(read.status, 404)
    const queryToken = `svc_test_${crypto.randomUUID()}`
    assert.strictEqual((await fetch(`${server.baseUrl}/v1/balance?access_token=${queryToken}`)).status, 401)

    const post = await eventually("the POST /teams server span", () =>
      otlp.spans.find((s) => s.attributes["http.route"] === "/teams" && s.attributes["http.request.method"] === "POST")
    )
    assert.strictEqual(post.name, "POST")
    assert.strictEqual(post.kind, 2, "SPAN_KIND_SERVER")
    assert.strictEqual(post.attributes["http.response.status_code"], "201")
    assert.strictEqual(post.attributes["resource.service.name"], "svc-api")
    const byTemplate = await eventually("the GET /treasury/webhook-endpoints/:id server span", () =>
      otlp.spans.find((s) => s.attributes["http.route"] === "/treasury/webhook-endpoints/:id")
    )
    assert.strictEqual(byTemplate.attributes["http.response.status_code"], "404")
    assert.strictEqual(byTemplate.attributes["url.path"], `/treasury/webhook-endpoints/${missing}`)
    const inQuery = await eventually("the GET /v1/balance server span", () =>
      otlp.spans.find((s) => s.attributes["url.path"] === "/v1/balance")
    )
    assert.include(inQuery.attributes["url.query"], "access_token=")
    await eventually("a span of the domain below the request", () =>
      otlp.spans.find((s) => s.name.startsWith("Teams.") || s.name.startsWith("Users."))
    )
    await eventually("a delivery worker step span", () => otlp.spans.find((s) => s.name === "WebhookDispatcher.fanOut"))
    assert.isFalse(
      otlp.spans.some((s) => s.attributes["url.path"] === "/health"),
      "health probes are not traced (the probe came before the requests whose spans arrived)"
    )
    assert.strictEqual(otlp.headers[0]?.["x-collector-key"], "collector-secret")
    const exported = JSON.stringify(otlp.spans)
    assert.notInclude(exported, owner)
    assert.notInclude(exported, METRICS_TOKEN)
    assert.notInclude(exported, queryToken)
    assert.notInclude(exported, "Bearer ")
    const keys = otlp.spans.flatMap((s) => Object.keys(s.attributes))
    assert.isFalse(
      keys.some((key) => key.includes("header")),
      "no request or response header is recorded"
    )
  })

  it("serves /metrics to the token holder only, with the request counts and the database's connections", async () => {
    assert.strictEqual((await fetch(`${server.baseUrl}/metrics`)).status, 401)
    const scraped = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    assert.strictEqual(scraped.status, 200)
    assert.strictEqual(scraped.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8")
    const text = await scraped.text()
    assert.isAtLeast(
      sampleValue(text, "http_requests_total", { method: "POST", route: "/teams", status_class: "2xx" }),
      1
    )
    assert.isAtLeast(sampleValue(text, "db_connections", { state: "active" }), 1, "the scrape's own query is active")
    assert.strictEqual(sampleValue(text, "spend_approvals_pending"), 0)
    const after = await fetch(`${server.baseUrl}/health/ready`, { headers: { "x-probe": "after-scrape" } })
    assert.strictEqual(after.status, 200)
    const owner = await sessionToken({ email: `late-${crypto.randomUUID()}@acme.test` })
    assert.strictEqual(
      (await fetch(`${server.baseUrl}/users/me`, { headers: { authorization: `Bearer ${owner}` } })).status,
      200
    )
    await eventually("the span of a request after the scrape", () =>
      otlp.spans.find((s) => s.attributes["http.route"] === "/users/me")
    )
    assert.isFalse(
      otlp.spans.some((s) => s.attributes["url.path"] === "/metrics"),
      "scrapes are not traced (the scrape came before the request whose span arrived)"
    )
  })

  it("says once in the log, naming the collector and no secret, that a collector it cannot reach gets no traces; serving goes on", async () => {
    const closed = await freePort()
    const unreachable = await processes.start({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=collector-secret",
      OTEL_BSP_SCHEDULE_DELAY: "100"
    })
    const warning = `traces are not exported: the collector http://127.0.0.1:${closed}/v1/traces could not be reached`
    // Requests for five seconds: batches every 100 ms, and the exporter's own retries of the first (one a second).
    const until = Date.now() + 5_000
    while (Date.now() < until) {
      assert.strictEqual((await fetch(`${unreachable.baseUrl}/users/me`)).status, 401)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const log = unreachable.output()
    assert.strictEqual(log.split(warning).length - 1, 1, log)
    assert.notInclude(log, "collector-secret")
    assert.strictEqual(unreachable.child.exitCode, null, "the service is still running")
  })
})

import { afterAll, assert, describe, it } from "@effect/vitest"
import { acmeApp, spendBody } from "../spend/SpendHttpSetup.ts"
import { inProcessApp } from "../support/InProcessApp.ts"
import { sampleValue, scrape } from "./Prometheus.ts"

const TOKEN = `metrics-${crypto.randomUUID()}`
const { app, acme, create } = acmeApp({ METRICS_TOKEN: TOKEN })
const metrics = () => scrape(app.handler, `Bearer ${TOKEN}`)

describe("GET /metrics (in-memory, METRICS_TOKEN set)", () => {
  it("is 404 when METRICS_TOKEN is unset", async () => {
    const plain = inProcessApp()
    afterAll(() => plain.dispose())
    assert.strictEqual((await scrape(plain.handler, `Bearer ${TOKEN}`)).status, 404)
  })

  it("answers 401 unauthorized without a token, with a wrong one, or with the token not as a bearer", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const answer = await scrape(app.handler, authorization)
      assert.strictEqual(answer.status, 401, String(authorization))
      assert.strictEqual(JSON.parse(answer.text).error, "unauthorized")
      assert.notInclude(answer.text, "http_requests_total")
    }
  })

  it("serves the Prometheus text format, counting requests by route template and status class", async () => {
    const sr = (await create(acme.testKey, spendBody(100))).body
    const route = { method: "GET", route: "/v1/spend-requests/:id" }
    const before = await metrics()
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${sr.id}`, { token: acme.testKey })).status, 200)
    const missing = crypto.randomUUID()
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${missing}`, { token: acme.testKey })).status, 404)
    assert.strictEqual((await app.call("GET", `/v1/no-such-route/${missing}`, { token: acme.testKey })).status, 404)
    const after = await metrics()
    assert.strictEqual(after.status, 200)
    assert.strictEqual(after.contentType, "text/plain; version=0.0.4; charset=utf-8")
    assert.include(after.text, "# TYPE http_requests_total counter")
    assert.include(after.text, "# TYPE http_request_duration_seconds histogram")
    const delta = (labels: Record<string, string>) =>
      sampleValue(after.text, "http_requests_total", labels) - sampleValue(before.text, "http_requests_total", labels)
    assert.strictEqual(delta({ ...route, status_class: "2xx" }), 1)
    assert.strictEqual(delta({ ...route, status_class: "4xx" }), 1)
    assert.strictEqual(delta({ method: "GET", route: "unmatched", status_class: "4xx" }), 1)
    const latency = (text: string) => sampleValue(text, "http_request_duration_seconds_count", route)
    assert.strictEqual(latency(after.text) - latency(before.text), 2)
    assert.isAbove(sampleValue(after.text, "http_request_duration_seconds_bucket", { ...route, le: "+Inf" }), 1)
    assert.notInclude(after.text, sr.id)
    assert.notInclude(after.text, missing)
    assert.notInclude(after.text, TOKEN)
  })

  it("counts spend decisions by outcome and the approvals' ends by how they ended", async () => {
    const decisions = (text: string, outcome: string) => sampleValue(text, "spend_decisions_total", { outcome })
    const ends = (text: string, outcome: string) => sampleValue(text, "spend_approval_outcomes_total", { outcome })
    const before = (await metrics()).text
    assert.strictEqual((await create(acme.testKey, spendBody(1_000))).body.status, "approved")
    const pending = (await create(acme.testKey, spendBody(6_000))).body
    assert.strictEqual(pending.status, "pending_approval")
    const denied = await app.call("POST", `/treasury/approvals/${pending.approval.id}/deny`, {
      token: acme.owner,
      body: {}
    })
    assert.strictEqual(denied.status, 200)
    const after = (await metrics()).text
    assert.strictEqual(decisions(after, "approved") - decisions(before, "approved"), 1)
    assert.strictEqual(decisions(after, "pending_approval") - decisions(before, "pending_approval"), 1)
    assert.strictEqual(decisions(after, "denied") - decisions(before, "denied"), 0)
    assert.strictEqual(ends(after, "denied") - ends(before, "denied"), 1)
    assert.strictEqual(ends(after, "approved") - ends(before, "approved"), 0)
  })

  it("reads the backlog gauges from the stores at scrape time", async () => {
    const pendingApprovals = async () => sampleValue((await metrics()).text, "spend_approvals_pending")
    const start = await pendingApprovals()
    const pending = (await create(acme.testKey, spendBody(7_000))).body
    assert.strictEqual(await pendingApprovals(), start + 1)
    const canceled = await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: acme.testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(canceled.status, 200)
    const text = (await metrics()).text
    assert.strictEqual(sampleValue(text, "spend_approvals_pending"), start)
    assert.include(text, "# TYPE webhook_deliveries_due gauge")
    assert.strictEqual(sampleValue(text, "webhook_deliveries_due"), 0)
    assert.include(text, "# TYPE inbound_events_parked gauge")
    assert.strictEqual(sampleValue(text, "inbound_events_parked"), 0)
    assert.notInclude(text, "db_connections", "no database in memory")
  })
})

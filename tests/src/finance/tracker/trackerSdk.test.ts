import { afterAll, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { inProcessApp, sessionToken } from "../../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../../support/LoopbackServer.ts"

const app = inProcessApp()
const server = loopbackServer(app.handler)
afterAll(() => app.dispose())

describe("the SDK's tracker and search", () => {
  it("drives the tracker routes, the timer and search", async () => {
    const owner = await sessionToken()
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })).status, 201)
    const sdk = createClient({ baseUrl: server.baseUrl(), token: owner })

    const site = await sdk.trackerProjects.create({
      payload: { name: "Acme website", billable: true, rate: 120, currency: "EUR" }
    })
    const [first] = (
      await sdk.trackerEntries.createMany({
        payload: [
          { projectId: site.id, start: "2026-05-04T08:00:00Z", duration: 2700 },
          { projectId: site.id, start: "2026-05-05T08:00:00Z", stop: "2026-05-05T08:15:00Z" }
        ]
      })
    ).data
    assert.deepInclude(await sdk.trackerProjects.get({ params: { id: site.id } }), {
      totalDuration: 3600,
      totalAmount: 120
    })
    assert.strictEqual(
      (await sdk.trackerEntries.update({ params: { id: first?.id ?? "" }, payload: { duration: 900 } })).duration,
      900
    )
    const may = await sdk.trackerEntries.list({ query: { from: "2026-05-01", to: "2026-05-31", limit: 10 } })
    assert.strictEqual(may.data.length, 2)

    const running = await sdk.trackerEntries.startTimer({ payload: { projectId: site.id } })
    assert.strictEqual((await sdk.trackerEntries.currentTimer()).data?.id, running.id)
    const refused = await failureOf(sdk.trackerEntries.startTimer({ payload: { projectId: site.id } }))
    assert.deepInclude(refused, { status: 409, error: "timer_running" })
    assert.strictEqual((await sdk.trackerEntries.stopTimer()).id, running.id)
    assert.strictEqual((await failureOf(sdk.trackerEntries.stopTimer())).error, "timer_not_running")

    const found = await sdk.search.search({ query: { q: "acme web", types: "customer,transaction" } })
    assert.deepStrictEqual(found.data, [])
    await sdk.customers.create({ payload: { name: "Acme Web Services" } })
    const hits = await sdk.search.search({ query: { q: "acme web", limit: 5 } })
    assert.deepStrictEqual(
      hits.data.map((h) => [h.type, h.title]),
      [["customer", "Acme Web Services"]]
    )
    assert.strictEqual((await failureOf(sdk.search.search({ query: { q: "!!" } }))).status, 400)

    assert.deepStrictEqual(await sdk.trackerEntries.delete({ params: { id: running.id } }), {
      id: running.id,
      object: "tracker_entry",
      deleted: true
    })
    assert.strictEqual((await sdk.trackerProjects.delete({ params: { id: site.id } })).deleted, true)
    assert.deepStrictEqual((await sdk.trackerProjects.list({ query: {} })).data, [])
  })
})

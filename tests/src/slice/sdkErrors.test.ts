import { assert, describe, it } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"
import { failureOf } from "../support/LoopbackServer.ts"
import { recordingProxy } from "../support/RecordingProxy.ts"
import { databaseName, sdkServerOnDatabase, sdkTeam } from "../support/SdkServer.ts"

const app = sdkServerOnDatabase()

describe(`ApiError from a real server (${databaseName})`, () => {
  it("carries the response's x-request-id and, on a /v1 route, its rate limit", async () => {
    const { keySecret } = await sdkTeam(app.baseUrl())
    const proxy = await recordingProxy(app.baseUrl)
    try {
      const agent = createClient({ baseUrl: proxy.baseUrl, token: keySecret })
      const missing = await failureOf(agent.accounts.get({ params: { id: crypto.randomUUID() } }))
      assert.deepStrictEqual([missing.status, missing.code, missing.error], [404, 404, "not_found"])
      const answered = proxy.forwarded.at(-1)
      assert.strictEqual(answered?.status, 404)
      assert.isString(answered?.requestId)
      assert.strictEqual(missing.requestId, answered?.requestId)
      assert.strictEqual(missing.rateLimit?.limit, 600)
      assert.isBelow(missing.rateLimit?.remaining ?? 600, 600)
      assert.isAbove(missing.rateLimit?.resetSeconds ?? 0, 0)
    } finally {
      await proxy.close()
    }
  })

  it("names the field in details on a 400 the server refuses", async () => {
    const { agent } = await sdkTeam(app.baseUrl(), { funds: 1_000 })
    const refused = await failureOf(
      agent.spendRequests.create({
        payload: { amount: 100, currency: "EUR", merchant: { name: "OpenAI" }, purpose: "tokens" }
      })
    )
    assert.instanceOf(refused, ApiError)
    assert.strictEqual(refused.status, 400, "refused by the server, not before sending")
    assert.deepStrictEqual(
      refused.details?.map((d) => d.path),
      ["currency"]
    )
    assert.isString(refused.requestId)
    assert.deepStrictEqual((await agent.spendRequests.list({ query: {} })).data, [])
  })

  it("answers the client's own well-formed x-request-id, and a fresh one instead of a malformed one", async () => {
    const own = `req-${crypto.randomUUID()}`
    const answer = await fetch(`${app.baseUrl()}/v1/balance`, { headers: { "x-request-id": own } })
    assert.strictEqual(answer.status, 401)
    assert.strictEqual(answer.headers.get("x-request-id"), own)
    assert.strictEqual(((await answer.json()) as { error: string }).error, "unauthorized")
    const odd = await fetch(`${app.baseUrl()}/health`, { headers: { "x-request-id": "not ok!" } })
    const fresh = odd.headers.get("x-request-id")
    assert.isString(fresh)
    assert.notStrictEqual(fresh, "not ok!")
  })
})

import { assert, describe, it } from "@effect/vitest"
import { ApiError, awaitDecision, makeClient, waitForDecision } from "@svc/sdk"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { databaseName, sdkServerOnDatabase, sdkTeam } from "../support/SdkServer.ts"

const app = sdkServerOnDatabase()

const spend = (amount: number) =>
  ({ amount, currency: "USD", merchant: { name: "Acme Cloud", category: "software" }, purpose: "compute" }) as const

/** A team whose key needs a person's approval above 1,000, and a request of 2,000 waiting for it. */
const pendingRequest = async () => {
  const team = await sdkTeam(app.baseUrl(), { policy: { approvalThreshold: 1_000 }, funds: 10_000 })
  const request = await team.agent.spendRequests.create({ payload: spend(2_000) })
  assert.strictEqual(request.status, "pending_approval")
  assert.isNotNull(request.approval)
  return { ...team, request, approvalId: request.approval?.id ?? "" }
}

const quick = { initialIntervalMs: 20, maxIntervalMs: 50 }

describe(`waiting for a spend request's decision (${databaseName})`, () => {
  it("resolves approved once an owner approves it through the API while the agent waits", async () => {
    const { owner, agent, request, approvalId } = await pendingRequest()
    let decided: Promise<unknown> | undefined
    const reads: Array<string> = []
    const final = await waitForDecision(agent, request.id, {
      ...quick,
      timeoutMs: 10_000,
      onPending: (seen) => {
        reads.push(seen.status)
        decided ??= owner.treasury.approve({ params: { id: approvalId }, payload: { note: "fine" } })
      }
    })
    await decided
    assert.strictEqual(final.id, request.id)
    assert.strictEqual(final.status, "approved")
    assert.isAtLeast(reads.length, 1, "it was still pending when the wait began")
    assert.strictEqual((await agent.accounts.balance()).posted, 8_000, "the approved amount was posted")
  })

  it("resolves denied once an owner denies it, and the hold is released", async () => {
    const { owner, agent, request, approvalId } = await pendingRequest()
    let decided: Promise<unknown> | undefined
    const final = await waitForDecision(agent, request.id, {
      ...quick,
      timeoutMs: 10_000,
      onPending: () => {
        decided ??= owner.treasury.deny({ params: { id: approvalId }, payload: {} })
      }
    })
    await decided
    assert.strictEqual(final.status, "denied")
    const balance = await agent.accounts.balance()
    assert.deepStrictEqual([balance.posted, balance.pending, balance.available], [10_000, 0, 10_000])
  })

  it("answers the request still pending when the wait times out", async () => {
    const { agent, request } = await pendingRequest()
    const started = Date.now()
    const final = await waitForDecision(agent, request.id, { ...quick, timeoutMs: 300 })
    assert.strictEqual(final.status, "pending_approval")
    assert.strictEqual(final.id, request.id)
    assert.isAtLeast(Date.now() - started, 250)
    assert.isBelow(Date.now() - started, 5_000)
  })

  it("rejects with the ApiError of a failing read", async () => {
    const { agent } = await pendingRequest()
    const failure = await waitForDecision(agent, crypto.randomUUID(), quick).catch((e: unknown) => e)
    assert.instanceOf(failure, ApiError)
    assert.deepStrictEqual([failure.status, failure.error], [404, "not_found"])
    assert.isString(failure.requestId)
  })

  it("awaitDecision over the Effect client answers the decision too", async () => {
    const { owner, keySecret, request, approvalId } = await pendingRequest()
    const client = await Effect.runPromise(
      makeClient({ baseUrl: app.baseUrl(), token: keySecret }).pipe(Effect.provide(FetchHttpClient.layer))
    )
    await owner.treasury.approve({ params: { id: approvalId }, payload: {} })
    const final = await Effect.runPromise(awaitDecision(client, request.id, { ...quick, timeoutMs: 5_000 }))
    assert.strictEqual(final.status, "approved")
  })
})

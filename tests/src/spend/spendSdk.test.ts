import { afterEach, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { intentBody } from "../checkout/CheckoutHttpSetup.ts"
import { failureOf } from "../support/LoopbackServer.ts"
import { recordingProxy } from "../support/RecordingProxy.ts"
import { databaseName, sdkServerOnDatabase, sdkTeam } from "../support/SdkServer.ts"

const app = sdkServerOnDatabase()
const fast = { initialDelayMs: 20, factor: 1.5, maxDelayMs: 100, maxElapsedMs: 5_000 }

const spend = (amount: number, purpose = "tokens") =>
  ({ amount, currency: "USD", merchant: { name: "OpenAI", category: "software" }, purpose }) as const

const proxies: Array<{ readonly close: () => Promise<void> }> = []
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()))
})

describe(`the SDK's spend requests, test deposits, accounts and ledger (${databaseName})`, () => {
  it("deposits, creates, reads, lists, cancels; the balance, accounts and ledger agree", async () => {
    const { owner, agent, accountId } = await sdkTeam(app.baseUrl(), { policy: { approvalThreshold: 1_000 } })
    const deposit = await agent.testHelpers.deposit({ payload: { amount: 5_000, currency: "USD" } })
    assert.deepStrictEqual([deposit.object, deposit.accountId, deposit.amount], ["deposit", accountId, 5_000])
    assert.deepStrictEqual(deposit.balance, { posted: 5_000, pending: 0, available: 5_000 })

    const approved = await agent.spendRequests.create({ payload: spend(300) })
    assert.strictEqual(approved.status, "approved")
    const pending = await agent.spendRequests.create({ payload: spend(2_000, "a bigger one") })
    assert.strictEqual(pending.status, "pending_approval")
    assert.deepStrictEqual(await agent.spendRequests.get({ params: { id: approved.id } }), approved)
    assert.deepStrictEqual(
      (await agent.accounts.balance()).available,
      5_000 - 300 - 2_000,
      "the approved request is posted and the pending one held"
    )

    const canceled = await agent.spendRequests.cancel({ params: { id: pending.id } })
    assert.strictEqual(canceled.status, "canceled")
    const again = await failureOf(agent.spendRequests.cancel({ params: { id: pending.id } }))
    assert.strictEqual(again.status, 409)
    assert.deepStrictEqual(
      (await agent.spendRequests.list({ query: {} })).data.map((r) => [r.id, r.status]),
      [
        [pending.id, "canceled"],
        [approved.id, "approved"]
      ]
    )
    assert.deepStrictEqual(
      (await agent.spendRequests.list({ query: { status: "approved" } })).data.map((r) => r.id),
      [approved.id]
    )
    const balance = await agent.accounts.balance()
    assert.deepStrictEqual(
      [balance.accountId, balance.posted, balance.pending, balance.available],
      [accountId, 4_700, 0, 4_700]
    )

    const accounts = await agent.accounts.list({ query: {} })
    assert.deepStrictEqual(
      accounts.data.map((a) => [a.id, a.balance.available]),
      [[accountId, 4_700]]
    )
    assert.deepStrictEqual(await agent.accounts.get({ params: { id: accountId } }), accounts.data[0])
    const treasury = await owner.treasury.accounts({ query: {} })
    assert.include(
      treasury.data.map((a) => a.id),
      accountId
    )
    const ledger = await owner.treasury.ledger({ query: { accountId } })
    const onAccount = (t: (typeof ledger.data)[number]) => t.entries.find((e) => e.accountId === accountId)?.amount
    assert.deepStrictEqual(
      ledger.data.map((t) => [t.code, t.kind, onAccount(t)]),
      [
        ["spend_request", "void_pending", 2_000],
        ["spend_request", "pending", -2_000],
        ["spend_request", "posted", -300],
        ["deposit", "posted", 5_000]
      ],
      "newest first: the deposit, the approved spend, the pending hold and its release on cancel"
    )
  })

  it("a create whose answer was lost (503) is retried with the same generated key and spends once", async () => {
    const { agent, keySecret } = await sdkTeam(app.baseUrl(), { funds: 10_000 })
    const proxy = await recordingProxy(
      app.baseUrl,
      (method, path) => method === "POST" && path === "/v1/spend-requests"
    )
    proxies.push(proxy)
    const viaProxy = createClient({ baseUrl: proxy.baseUrl, token: keySecret, retry: fast })

    const created = await viaProxy.spendRequests.create({ payload: spend(1_234) })
    assert.strictEqual(created.status, "approved")
    assert.strictEqual(created.amount, 1_234)
    const attempts = proxy.forwarded.filter((f) => f.path === "/v1/spend-requests")
    assert.deepStrictEqual(
      attempts.map((a) => [a.status, a.lost, a.replayed]),
      [
        [201, true, false],
        [201, false, true]
      ],
      "the service did the first attempt, whose answer was lost, and replayed it for the retry"
    )
    assert.match(attempts[0]?.idempotencyKey ?? "", /^[0-9a-f-]{36}$/u)
    assert.strictEqual(attempts[1]?.idempotencyKey, attempts[0]?.idempotencyKey)

    assert.deepStrictEqual(
      (await agent.spendRequests.list({ query: {} })).data.map((r) => r.id),
      [created.id]
    )
    const balance = await agent.accounts.balance()
    assert.deepStrictEqual([balance.posted, balance.pending, balance.available], [8_766, 0, 8_766])
  })

  it("a checkout intent whose answer was lost is retried with the same key and made once", async () => {
    const { agent, keySecret } = await sdkTeam(app.baseUrl(), { funds: 10_000 })
    const proxy = await recordingProxy(
      app.baseUrl,
      (method, path) => method === "POST" && path === "/v1/checkout/intents"
    )
    proxies.push(proxy)
    const viaProxy = createClient({ baseUrl: proxy.baseUrl, token: keySecret, retry: fast })

    const intent = await viaProxy.checkout.create({ payload: intentBody() })
    const attempts = proxy.forwarded.filter((f) => f.path === "/v1/checkout/intents")
    assert.deepStrictEqual(
      attempts.map((a) => [a.lost, a.replayed]),
      [
        [true, false],
        [false, true]
      ]
    )
    assert.strictEqual(attempts[1]?.idempotencyKey, attempts[0]?.idempotencyKey)
    assert.deepStrictEqual(
      (await agent.checkout.list({ query: {} })).data.map((i) => i.id),
      [intent.id]
    )
  })
})

import { assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { twoTeamsApp } from "./TransfersHttpSetup.ts"

const { app, teams } = twoTeamsApp()

const server = loopbackServer(app.handler)

describe("the SDK's transfer routes (receive addresses, payment codes)", () => {
  it("reads and resolves receive addresses; another mode's address is a 404 ApiError", async () => {
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const globex = createClient({ baseUrl: server.baseUrl(), token: teams.globex.testKey })
    const own = await acme.transfers.receiveAddress()
    assert.strictEqual(own.teamName, "Acme")
    assert.strictEqual(own.mode, "test")
    assert.deepStrictEqual(await globex.transfers.resolveAddress({ params: { address: own.address } }), own)
    const live = createClient({ baseUrl: server.baseUrl(), token: teams.globex.liveKey })
    const refused = await failureOf(live.transfers.resolveAddress({ params: { address: own.address } }))
    assert.deepStrictEqual([refused.status, refused.error], [404, "not_found"])
  })

  it("creates a payment code once per idempotency key and resolves it from another team", async () => {
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const key = crypto.randomUUID()
    const code = await acme.transfers.createPaymentCode({
      payload: { amount: 900, memo: "thanks" },
      headers: { "idempotency-key": key }
    })
    assert.deepStrictEqual(
      await acme.transfers.createPaymentCode({
        payload: { amount: 900, memo: "thanks" },
        headers: { "idempotency-key": key }
      }),
      code
    )
    assert.strictEqual(code.status, "active")
    const globex = createClient({ baseUrl: server.baseUrl(), token: teams.globex.testKey })
    assert.deepStrictEqual(await globex.transfers.getPaymentCode({ params: { code: code.code } }), code)
    const invalid = await failureOf(
      acme.transfers.createPaymentCode({ payload: { amount: 0 }, headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["amount"]
    )
  })
})

describe("the SDK's transfer routes (sending, listing, accepting)", () => {
  it("sends once per idempotency key; the recipient lists, reads and accepts; the sender cancels another", async () => {
    const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
      token: teams.acme.testKey,
      body: { amount: 5_000, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(deposit.status, 201)
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const globex = createClient({ baseUrl: server.baseUrl(), token: teams.globex.testKey })
    const to = { address: (await globex.transfers.receiveAddress()).address }
    const key = crypto.randomUUID()
    const sent = await acme.transfers.create({
      payload: { to, amount: 1_200, currency: "USD", memo: "thanks" },
      headers: { "idempotency-key": key }
    })
    assert.strictEqual(sent.status, "pending_acceptance")
    assert.strictEqual(sent.direction, "outgoing")
    assert.deepStrictEqual(
      await acme.transfers.create({
        payload: { to, amount: 1_200, currency: "USD", memo: "thanks" },
        headers: { "idempotency-key": key }
      }),
      sent
    )

    const incoming = await globex.transfers.list({ query: { direction: "incoming", status: "pending_acceptance" } })
    assert.deepStrictEqual(
      incoming.data.map((t) => t.id),
      [sent.id]
    )
    assert.strictEqual((await globex.transfers.get({ params: { id: sent.id } })).direction, "incoming")
    const accepted = await globex.transfers.accept({ params: { id: sent.id } })
    assert.strictEqual(accepted.status, "completed")
    const again = await failureOf(
      globex.transfers.accept({ params: { id: sent.id }, headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual([again.status, again.error], [409, "transfer_not_pending"])

    const other = await acme.transfers.create({
      payload: { to, amount: 100, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual((await acme.transfers.cancel({ params: { id: other.id } })).status, "canceled")
    const wrongSide = await failureOf(acme.transfers.decline({ params: { id: other.id } }))
    assert.deepStrictEqual([wrongSide.status, wrongSide.error], [403, "forbidden"])
    const declinable = await acme.transfers.create({
      payload: { to, amount: 50, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual((await globex.transfers.decline({ params: { id: declinable.id } })).status, "declined")
    const page = await acme.transfers.list({ query: { limit: 2 } })
    assert.deepStrictEqual(
      page.data.map((t) => t.id),
      [declinable.id, other.id]
    )
    assert.isTrue(page.meta.hasNextPage)
    const invalid = await failureOf(
      acme.transfers.create({
        payload: { to, amount: 10, currency: "EUR" },
        headers: { "idempotency-key": crypto.randomUUID() }
      })
    )
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["currency"]
    )
  })
})

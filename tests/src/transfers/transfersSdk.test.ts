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
    const own = await acme.receiveAddress()
    assert.strictEqual(own.teamName, "Acme")
    assert.strictEqual(own.mode, "test")
    assert.deepStrictEqual(await globex.resolveReceiveAddress(own.address), own)
    const live = createClient({ baseUrl: server.baseUrl(), token: teams.globex.liveKey })
    const refused = await failureOf(live.resolveReceiveAddress(own.address))
    assert.deepStrictEqual([refused.status, refused.error], [404, "not_found"])
  })

  it("creates a payment code once per idempotency key and resolves it from another team", async () => {
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const key = crypto.randomUUID()
    const code = await acme.createPaymentCode({ amount: 900, memo: "thanks" }, key)
    assert.deepStrictEqual(await acme.createPaymentCode({ amount: 900, memo: "thanks" }, key), code)
    assert.strictEqual(code.status, "active")
    const globex = createClient({ baseUrl: server.baseUrl(), token: teams.globex.testKey })
    assert.deepStrictEqual(await globex.getPaymentCode(code.code), code)
    const invalid = await failureOf(acme.createPaymentCode({ amount: 0 }, crypto.randomUUID()))
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
    const to = { address: (await globex.receiveAddress()).address }
    const key = crypto.randomUUID()
    const sent = await acme.createTransfer({ to, amount: 1_200, currency: "USD", memo: "thanks" }, key)
    assert.strictEqual(sent.status, "pending_acceptance")
    assert.strictEqual(sent.direction, "outgoing")
    assert.deepStrictEqual(await acme.createTransfer({ to, amount: 1_200, currency: "USD", memo: "thanks" }, key), sent)

    const incoming = await globex.listTransfers({ direction: "incoming", status: "pending_acceptance" })
    assert.deepStrictEqual(
      incoming.data.map((t) => t.id),
      [sent.id]
    )
    assert.strictEqual((await globex.getTransfer(sent.id)).direction, "incoming")
    const accepted = await globex.acceptTransfer(sent.id)
    assert.strictEqual(accepted.status, "completed")
    const again = await failureOf(globex.acceptTransfer(sent.id, crypto.randomUUID()))
    assert.deepStrictEqual([again.status, again.error], [409, "transfer_not_pending"])

    const other = await acme.createTransfer({ to, amount: 100, currency: "USD" }, crypto.randomUUID())
    assert.strictEqual((await acme.cancelTransfer(other.id)).status, "canceled")
    const wrongSide = await failureOf(acme.declineTransfer(other.id))
    assert.deepStrictEqual([wrongSide.status, wrongSide.error], [403, "forbidden"])
    const declinable = await acme.createTransfer({ to, amount: 50, currency: "USD" }, crypto.randomUUID())
    assert.strictEqual((await globex.declineTransfer(declinable.id)).status, "declined")
    const page = await acme.listTransfers({ limit: 2 })
    assert.deepStrictEqual(
      page.data.map((t) => t.id),
      [declinable.id, other.id]
    )
    assert.isTrue(page.meta.hasNextPage)
    const invalid = await failureOf(acme.createTransfer({ to, amount: 10, currency: "EUR" }, crypto.randomUUID()))
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["currency"]
    )
  })
})

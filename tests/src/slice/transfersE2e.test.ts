import { assert, beforeAll, describe, it } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"
import { spender } from "../faults/SpendLoad.ts"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"

const SENDER_FUNDS = 20_000
const RECIPIENT_FUNDS = 3_000

describe("end to end: book transfers between two teams through the real server process and the SDK", () => {
  const processes = apiProcesses()
  let server: Running

  beforeAll(async () => {
    server = await processes.start()
  }, 120_000)

  it("the sender sends two transfers; the recipient lists them, accepts one and declines the other", async () => {
    const senderTeam = await spender(server.baseUrl, {}, SENDER_FUNDS)
    const recipientTeam = await spender(server.baseUrl, {}, RECIPIENT_FUNDS)
    const sender = createClient({ baseUrl: server.baseUrl, token: senderTeam.secret })
    const recipient = createClient({ baseUrl: server.baseUrl, token: recipientTeam.secret })
    const to = { address: (await recipient.transfers.receiveAddress()).address }

    const first = await sender.transfers.create({
      payload: { to, amount: 4_000, currency: "USD", memo: "invoice 1" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const second = await sender.transfers.create({
      payload: { to, amount: 2_500, currency: "USD", memo: "invoice 2" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.deepStrictEqual(
      [first, second].map((t) => [t.status, t.direction, t.to.address]),
      [
        ["pending_acceptance", "outgoing", to.address],
        ["pending_acceptance", "outgoing", to.address]
      ]
    )
    assert.deepStrictEqual(await sender.accounts.balance().then(({ posted, pending }) => ({ posted, pending })), {
      posted: SENDER_FUNDS,
      pending: 6_500
    })

    const incoming = await recipient.transfers.list({ query: { direction: "incoming" } })
    assert.deepStrictEqual(
      incoming.data.map((t) => [t.id, t.status, t.direction, t.amount, t.memo, t.from.address]),
      [
        [second.id, "pending_acceptance", "incoming", 2_500, "invoice 2", second.from.address],
        [first.id, "pending_acceptance", "incoming", 4_000, "invoice 1", first.from.address]
      ]
    )
    assert.deepStrictEqual(
      incoming.data.map((t) => t.decision),
      [null, null],
      "the recipient does not see the sender's decision"
    )
    assert.deepStrictEqual((await recipient.transfers.list({ query: { direction: "outgoing" } })).data, [])

    const accepted = await recipient.transfers.accept({ params: { id: first.id } })
    const declined = await recipient.transfers.decline({ params: { id: second.id } })
    assert.deepStrictEqual(
      [accepted, declined].map((t) => [t.id, t.status, t.direction]),
      [
        [first.id, "completed", "incoming"],
        [second.id, "declined", "incoming"]
      ]
    )

    const seenBySender = await sender.transfers.list({ query: {} })
    assert.deepStrictEqual(
      seenBySender.data.map((t) => [t.id, t.status, t.direction]),
      [
        [second.id, "declined", "outgoing"],
        [first.id, "completed", "outgoing"]
      ]
    )
    assert.strictEqual((await sender.transfers.get({ params: { id: first.id } })).status, "completed")
    assert.strictEqual((await recipient.transfers.get({ params: { id: second.id } })).status, "declined")
    assert.deepStrictEqual(
      (await recipient.transfers.list({ query: { status: "pending_acceptance" } })).data,
      [],
      "nothing is left to accept"
    )

    const senderBalance = await sender.accounts.balance()
    assert.deepStrictEqual(
      [senderBalance.posted, senderBalance.pending, senderBalance.available],
      [SENDER_FUNDS - 4_000, 0, SENDER_FUNDS - 4_000],
      "the accepted hold was posted and the declined one released"
    )
    const recipientBalance = await recipient.accounts.balance()
    assert.deepStrictEqual(
      [recipientBalance.posted, recipientBalance.pending, recipientBalance.available],
      [RECIPIENT_FUNDS + 4_000, 0, RECIPIENT_FUNDS + 4_000],
      "credited once, with the accepted transfer only"
    )
  }, 60_000)

  it("a payment code pays one transfer: a second sender is refused at once, and no money is left stuck", async () => {
    const client = async (funds: number) =>
      createClient({ baseUrl: server.baseUrl, token: (await spender(server.baseUrl, {}, funds)).secret })
    const [first, second, recipient] = await Promise.all([
      client(SENDER_FUNDS),
      client(SENDER_FUNDS),
      client(RECIPIENT_FUNDS)
    ])
    const code = await recipient.transfers.createPaymentCode({ payload: { amount: 2_500 } })
    const payment = { to: { paymentCode: code.code }, amount: 2_500, currency: "USD" as const }

    const paid = await first.transfers.create({ payload: payment })
    assert.strictEqual(paid.status, "pending_acceptance")
    const refused = await second.transfers.create({ payload: payment }).catch((e: unknown) => e)
    assert.instanceOf(refused, ApiError)
    assert.deepStrictEqual([refused.status, refused.error], [409, "payment_code_reserved"])
    assert.strictEqual((await recipient.transfers.accept({ params: { id: paid.id } })).status, "completed")
    assert.strictEqual((await recipient.transfers.getPaymentCode({ params: { code: code.code } })).status, "used")

    const balances = await Promise.all(
      [first, second, recipient].map(async (c) => {
        const { posted, pending } = await c.accounts.balance()
        return [posted, pending]
      })
    )
    assert.deepStrictEqual(balances, [
      [SENDER_FUNDS - 2_500, 0],
      [SENDER_FUNDS, 0],
      [RECIPIENT_FUNDS + 2_500, 0]
    ])
    assert.deepStrictEqual(
      (await second.transfers.list({ query: {} })).data,
      [],
      "the refused sender has no transfer, completed or held"
    )
  }, 60_000)
})

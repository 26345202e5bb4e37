import { assert, layer } from "@effect/vitest"
import { FileStorageMemory, PortsMemory, PublishedEvents } from "@svc/adapters-memory"
import {
  CardAuthorizationAdvised,
  CardStatusReported,
  CardTransactionCleared,
  CardTransactionRefunded,
  Checkout,
  type DomainEvent,
  InboundCommands,
  Inbox
} from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { fundedAgent } from "../spend/SpendSetup.ts"
import {
  authorization,
  authorize,
  balanceOf,
  cardOf,
  checkoutDomainOver,
  intent,
  intentWithCard
} from "./CheckoutDomainSetup.ts"

const published = Effect.flatMap(PublishedEvents, Ref.get)

/** The checkout events a team got since `from`, as `type:status`, in order. */
const eventsOf = (from: number, teamId: string) =>
  Effect.map(published, (events: ReadonlyArray<DomainEvent>) =>
    events
      .slice(from)
      .filter((e) => e.teamId === teamId && e.type.startsWith("checkout_intent."))
      .map((e) => `${e.type}:${(e.data as { status: string }).status}`)
  )

const handle = (command: InboundCommands["Service"]["handle"] extends (c: infer C) => unknown ? C : never) =>
  InboundCommands.use((c) => c.handle(command))

layer(
  InboundCommands.layer.pipe(
    Layer.provideMerge(checkoutDomainOver(PortsMemory)),
    Layer.provideMerge(Inbox.layer.pipe(Layer.provide(FileStorageMemory))),
    Layer.provideMerge(PortsMemory)
  )
)("checkout events and the issuer's events (in-memory)", (it) => {
  it.effect("an intent's life is published to its team, with the card's reference and never its number", () =>
    Effect.gen(function* () {
      const { agent, approver } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 5_000 } })
      const from = (yield* published).length
      const { credentials, cardToken } = yield* intentWithCard(agent, { amount: 4_000 })
      const request = authorization(cardToken, { amount: 4_000 })
      yield* authorize(request)
      yield* handle(
        new CardTransactionCleared({ transactionId: "t1", token: request.token, amount: 4_000, currency: "USD" })
      )
      const held = yield* intent(agent, { amount: 6_000 })
      yield* Checkout.use((c) => c.approve(approver, held.approval!.id, null))
      yield* Checkout.use((c) => c.cancel(agent, held.id))
      const refused = yield* intent(agent, { amount: 7_000 })
      yield* Checkout.use((c) => c.deny(approver, refused.approval!.id, null))
      assert.deepStrictEqual(yield* eventsOf(from, agent.teamId), [
        "checkout_intent.created:approved",
        "checkout_intent.card_issued:approved",
        "checkout_intent.authorized:authorized",
        "checkout_intent.completed:completed",
        "checkout_intent.created:pending_approval",
        "checkout_intent.approval_required:pending_approval",
        "checkout_intent.approved:approved",
        "checkout_intent.canceled:canceled",
        "checkout_intent.created:pending_approval",
        "checkout_intent.approval_required:pending_approval",
        "checkout_intent.denied:denied"
      ])
      const text = JSON.stringify((yield* published).slice(from))
      assert.notInclude(text, credentials.number!)
      assert.notInclude(text, credentials.number!.slice(6))
      const issued = (yield* published).slice(from).find((e) => e.type === "checkout_intent.card_issued")
      assert.isDefined(issued)
      assert.deepStrictEqual((issued.data as { card: unknown }).card, {
        id: credentials.cardId,
        last4: credentials.last4,
        brand: "visa",
        expMonth: credentials.expMonth,
        expYear: credentials.expYear
      })
    })
  )

  it.effect(
    "the issuer's advice, clearing, refund and card events reach the authorizations through the inbound commands",
    () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent)
        const request = authorization(cardToken)
        yield* authorize(request)
        yield* handle(new CardAuthorizationAdvised({ token: request.token, amount: 4_000 }))
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 4_000, available: 6_000 })
        const overdrawn = yield* Effect.flip(
          handle(new CardAuthorizationAdvised({ token: request.token, amount: 10_001 }))
        )
        assert.deepInclude(overdrawn, { _tag: "InboundCommandRefused", retryable: false })
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 4_000, available: 6_000 })
        const cleared = new CardTransactionCleared({
          transactionId: "t2",
          token: request.token,
          amount: 3_500,
          currency: "USD"
        })
        yield* handle(cleared)
        yield* handle(cleared)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 6_500, pending: 0, available: 6_500 })
        assert.strictEqual((yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).capturedAmount, 3_500)
        const refund = new CardTransactionRefunded({
          refundId: "r1",
          token: request.token,
          amount: 1_000,
          currency: "USD"
        })
        yield* handle(refund)
        yield* handle(refund)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 7_500, pending: 0, available: 7_500 })
        const overRefund = new CardTransactionRefunded({
          refundId: "r2",
          token: request.token,
          amount: 2_501,
          currency: "USD"
        })
        assert.deepInclude(yield* Effect.flip(handle(overRefund)), { _tag: "InboundCommandRefused", retryable: false })
        yield* handle(
          new CardTransactionRefunded({ refundId: "r3", token: request.token, amount: 2_500, currency: "USD" })
        )
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        assert.strictEqual((yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).status, "completed")
        const other = yield* intentWithCard(agent, { amount: 1_000 })
        yield* handle(new CardStatusReported({ cardToken: other.cardToken, status: "inactive" }))
        assert.strictEqual((yield* cardOf(other.intent)).status, "inactive")
        yield* handle(new CardStatusReported({ cardToken, status: "active" }))
        assert.strictEqual((yield* cardOf(created)).status, "closed")
        const unknown = yield* Effect.flip(
          handle(new CardStatusReported({ cardToken: "card_tok_none", status: "closed" }))
        )
        assert.deepInclude(unknown, { _tag: "InboundCommandRefused", retryable: false })
        const over = yield* Effect.flip(handle(new CardAuthorizationAdvised({ token: "auth_none", amount: 1 })))
        assert.strictEqual(over._tag, "InboundCommandRefused")
      })
  )
})

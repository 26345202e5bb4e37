import { assert, layer } from "@effect/vitest"
import { PortsMemory, PublishedEvents, X402ChainMemory } from "@svc/adapters-memory"
import { X402Payments } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { paymentRequiredV2, RESOURCE, requirementV2, x402DomainOver } from "./X402Setup.ts"

layer(x402DomainOver(PortsMemory).pipe(Layer.provideMerge(PortsMemory)))(
  "x402 payment events (in-memory outbox)",
  (it) => {
    it.effect("each change publishes its event with the payment's view, never its signature", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 500 } })
        const service = yield* X402Payments
        const pay = (amount: string) =>
          service.create(agent, {
            resourceUrl: RESOURCE,
            paymentRequired: paymentRequiredV2(RESOURCE, requirementV2({ amount }))
          })
        const settled = yield* pay("1000000")
        const approved = yield* pay("6000000")
        const denied = yield* pay("7000000")
        const unused = yield* pay("2000000")
        yield* service.approve(approver, approved.approval!.id, null)
        yield* service.deny(approver, denied.approval!.id, null)
        yield* X402ChainMemory.use((chain) =>
          chain.use(
            {
              chainId: settled.chainId,
              asset: settled.asset,
              authorizer: settled.authorization!.from,
              nonce: settled.authorization!.nonce
            },
            `0x${"cd".repeat(32)}`
          )
        )
        yield* service.processDue
        yield* TestClock.adjust("5 minutes")
        yield* service.processDue
        const events = (yield* Effect.flatMap(PublishedEvents, Ref.get)).filter(
          (e) => e.teamId === team.id && e.type.startsWith("x402_payment.")
        )
        const of = (id: string) => events.filter((e) => e.data.id === id).map((e) => e.type)
        assert.deepStrictEqual(of(settled.id), ["x402_payment.created", "x402_payment.signed", "x402_payment.settled"])
        assert.deepStrictEqual(of(approved.id), [
          "x402_payment.created",
          "x402_payment.approval_required",
          "x402_payment.signed",
          "x402_payment.expired"
        ])
        assert.deepStrictEqual(of(denied.id), [
          "x402_payment.created",
          "x402_payment.approval_required",
          "x402_payment.denied"
        ])
        assert.deepStrictEqual(of(unused.id), ["x402_payment.created", "x402_payment.signed", "x402_payment.expired"])
        for (const e of events) {
          assert.strictEqual(e.data.object, "x402_payment")
          assert.notProperty(e.data, "signature")
          assert.notProperty(e.data, "paymentHeader")
        }
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { PortsMemory, PublishedEvents, SimulatedPayoutRail } from "@svc/adapters-memory"
import { CryptoPayouts } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { payOut, payoutsDomainOver } from "./PayoutsSetup.ts"

layer(payoutsDomainOver(PortsMemory, SimulatedPayoutRail).pipe(Layer.provideMerge(PortsMemory)))(
  "crypto payout events (in-memory outbox)",
  (it) => {
    it.effect("each change publishes its event with the payout's view, never its payload", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 5_000 } })
        const service = yield* CryptoPayouts
        const ok = yield* payOut(agent, approver, 1_000)
        const big = yield* payOut(agent, approver, 6_000)
        const canceled = yield* payOut(agent, approver, 1_000)
        yield* service.cancel(agent, canceled.id)
        yield* service.processDue
        yield* service.processDue
        yield* service.deny(approver, big.approval!.id, null)
        const events = (yield* Effect.flatMap(PublishedEvents, Ref.get)).filter(
          (e) => e.teamId === team.id && e.type.startsWith("crypto_payout.")
        )
        const of = (id: string) => events.filter((e) => e.data.id === id).map((e) => e.type)
        assert.deepStrictEqual(of(ok.id), [
          "crypto_payout.created",
          "crypto_payout.submitted",
          "crypto_payout.confirmed"
        ])
        assert.deepStrictEqual(of(big.id), [
          "crypto_payout.created",
          "crypto_payout.approval_required",
          "crypto_payout.denied"
        ])
        assert.deepStrictEqual(of(canceled.id), ["crypto_payout.created", "crypto_payout.canceled"])
        const confirmed = events.find((e) => e.type === "crypto_payout.confirmed")
        assert.strictEqual(confirmed?.data.status, "confirmed")
        assert.match(String(confirmed?.data.txHash), /^0x[0-9a-f]{64}$/u)
        for (const e of events) {
          assert.strictEqual(e.data.object, "crypto_payout")
          assert.notProperty(e.data, "payload")
        }
      })
    )
  }
)

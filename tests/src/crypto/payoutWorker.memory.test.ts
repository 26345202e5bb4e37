import { assert, layer } from "@effect/vitest"
import { PortsMemory, SimulatedPayoutRail } from "@svc/adapters-memory"
import { Sha256Node } from "@svc/api"
import { CryptoPayouts, JobsFence, PayoutRail } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { balanceOf, countingRail, payOut, payoutsDomainOver } from "./PayoutsSetup.ts"

// Node's synchronous digest: the test clock alone then drives the worker's rounds (WebCrypto answers by a promise).
layer(payoutsDomainOver(PortsMemory, SimulatedPayoutRail).pipe(Layer.provideMerge(Sha256Node)))(
  "the periodic crypto payout worker",
  (it) => {
    it.effect("submits on its first round, outlives a round that dies before broadcasting, then confirms", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000 })
        const { rail, calls, crash } = yield* countingRail()
        const service = yield* CryptoPayouts.make.pipe(Effect.provideService(PayoutRail, rail))
        const p = yield* payOut(agent, approver, 2_000)
        yield* crash(true)
        yield* Layer.build(CryptoPayouts.worker("1 second").pipe(Layer.provide(Layer.succeed(CryptoPayouts, service))))
        yield* TestClock.adjust("10 millis")
        const stored = yield* service.get(agent.teamId, "test", p.id)
        assert.strictEqual(stored.status, "submitted")
        assert.deepStrictEqual((yield* calls).broadcasts, [])

        yield* crash(false)
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual(
          (yield* calls).broadcasts.map((b) => b.txHash),
          [stored.txHash ?? ""]
        )
        yield* TestClock.adjust("1 second")
        assert.strictEqual((yield* service.get(agent.teamId, "test", p.id)).status, "confirmed")
        assert.deepStrictEqual((yield* calls).prepared, [stored.txHash ?? ""])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 8_000, pending: 0, available: 8_000 })
      }).pipe(Effect.scoped)
    )

    it.effect("stores and broadcasts nothing once the jobs' fence says another process leads (ADR 0050)", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000 })
        const { rail, calls } = yield* countingRail()
        const stillLeading = yield* Ref.make(false)
        const service = yield* CryptoPayouts.make.pipe(
          Effect.provideService(PayoutRail, rail),
          Effect.provideService(JobsFence, { stillLeading: Ref.get(stillLeading) })
        )
        const p = yield* payOut(agent, approver, 2_000)
        assert.deepStrictEqual(yield* service.processDue, { confirmed: 0, failed: 0, rebroadcast: 0, submitted: 0 })
        assert.strictEqual((yield* service.get(agent.teamId, "test", p.id)).status, "pending")
        assert.deepStrictEqual((yield* calls).broadcasts, [])

        yield* Ref.set(stillLeading, true)
        assert.strictEqual((yield* service.processDue).submitted, 1)
        assert.strictEqual((yield* service.get(agent.teamId, "test", p.id)).status, "submitted")
        assert.strictEqual((yield* calls).broadcasts.length, 1)
      })
    )
  }
)

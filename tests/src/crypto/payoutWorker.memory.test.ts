import { assert, layer } from "@effect/vitest"
import { PortsMemory, SimulatedPayoutRail } from "@svc/adapters-memory"
import { Sha256Node } from "@svc/api"
import { CryptoPayouts, PayoutRail } from "@svc/domain"
import { Effect, Layer } from "effect"
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
  }
)

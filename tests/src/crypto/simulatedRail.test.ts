import { assert, describe, it } from "@effect/vitest"
import { makeSimulatedRail } from "@svc/adapters-memory"
import type { RailTransfer } from "@svc/domain"
import { Effect } from "effect"

const transfer = (over: Partial<RailTransfer> = {}): RailTransfer => ({
  payoutId: "0b9f1c52-3c3a-4d2e-9a57-2f8f5d0c1e11",
  mode: "test",
  network: "base",
  asset: "USDC",
  address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  baseUnits: 9_950_000n,
  ...over
})

describe("the simulated payout rail", () => {
  it.effect("signs deterministically; a transfer is unknown until broadcast, pending for N polls, then confirmed", () =>
    Effect.gen(function* () {
      const rail = yield* makeSimulatedRail({ confirmAfterPolls: 2 })
      const prepared = yield* rail.prepare(transfer())
      assert.deepStrictEqual(yield* rail.prepare(transfer()), prepared)
      assert.match(prepared.txHash, /^0x[0-9a-f]{64}$/u)
      assert.notStrictEqual((yield* rail.prepare(transfer({ payoutId: "other" }))).txHash, prepared.txHash)
      assert.deepStrictEqual(yield* rail.status("base", prepared), { _tag: "unknown" })
      yield* rail.broadcast("base", prepared)
      yield* rail.broadcast("base", prepared)
      assert.deepStrictEqual(yield* rail.status("base", prepared), { _tag: "pending" })
      assert.deepStrictEqual(yield* rail.status("base", prepared), { _tag: "pending" })
      assert.deepStrictEqual(yield* rail.status("base", prepared), { _tag: "confirmed" })
    })
  )

  it.effect("fails or refuses the transfers its options choose; a foreign payload is rejected", () =>
    Effect.gen(function* () {
      const rail = yield* makeSimulatedRail({
        rejection: (t) => (t.baseUnits > 1_000_000_000n ? "too large" : undefined),
        failure: (t) => (t.network === "polygon" ? "execution reverted" : undefined)
      })
      const refused = yield* Effect.flip(rail.prepare(transfer({ baseUnits: 2_000_000_000n })))
      assert.deepStrictEqual([refused._tag, refused.message], ["RailRejected", "too large"])
      const reverting = yield* rail.prepare(transfer({ network: "polygon" }))
      yield* rail.broadcast("polygon", reverting)
      assert.deepStrictEqual(yield* rail.status("polygon", reverting), { _tag: "failed", reason: "execution reverted" })
      const forged = yield* Effect.flip(rail.broadcast("base", { txHash: "0x00", payload: "{}" }))
      assert.strictEqual(forged._tag, "RailRejected")
      const elsewhere = yield* Effect.flip(rail.broadcast("base", reverting))
      assert.strictEqual(elsewhere._tag, "RailRejected")
    })
  )
})

import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Ids, newId, SecureRandom, TeamId, uuidv7Generator, uuidv7Of } from "../../src/index.ts"

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u

describe("Ids", () => {
  it("uuidv7Of lays out time, sequence, version and variant", () => {
    const id = uuidv7Of(0x0123456789ab, 0xabc, new Uint8Array(8).fill(0xff))
    assert.strictEqual(id, "01234567-89ab-7abc-bfff-ffffffffffff")
    assert.match(uuidv7Of(Date.UTC(2026, 0, 1), 0, new Uint8Array(8)), UUID_V7)
  })

  it.effect("ids sort in creation order while the clock stands still, steps back, or a millisecond overflows", () =>
    Effect.gen(function* () {
      const next = uuidv7Generator()
      const ids: Array<string> = []
      yield* TestClock.setTime(1_700_000_000_000)
      for (let i = 0; i < 5000; i++) ids.push(yield* next)
      yield* TestClock.setTime(1_600_000_000_000)
      for (let i = 0; i < 10; i++) ids.push(yield* next)
      yield* TestClock.setTime(1_800_000_000_000)
      ids.push(yield* next)
      for (const id of ids) assert.match(id, UUID_V7)
      assert.deepStrictEqual([...ids].sort(), ids)
      assert.strictEqual(new Set(ids).size, ids.length)
    })
  )

  it.effect("ids and their randomness come from the services in context", () =>
    Effect.gen(function* () {
      const fixed = yield* newId(TeamId).pipe(
        Effect.provideService(Ids, Effect.succeed("11111111-1111-4111-8111-111111111111"))
      )
      assert.strictEqual(fixed, "11111111-1111-4111-8111-111111111111")
      const seeded = uuidv7Generator()
      const id = yield* seeded.pipe(
        Effect.provideService(SecureRandom, (length) => Effect.succeed(new Uint8Array(length)))
      )
      assert.strictEqual(id, "00000000-0000-7000-8000-000000000000")
    })
  )
})

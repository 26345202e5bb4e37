import { assert, describe, it } from "@effect/vitest"
import { doublingDelayMs } from "../../src/shared/index.ts"

describe("doubling backoff", () => {
  const policy = { baseDelayMs: 1_000, maxDelayMs: 600_000 }

  it("waits the base delay after the first attempt and doubles with each further one", () => {
    assert.deepStrictEqual(
      [1, 2, 3, 4].map((attempts) => doublingDelayMs(policy, attempts)),
      [1_000, 2_000, 4_000, 8_000]
    )
  })

  it("never waits longer than the cap, however many attempts failed", () => {
    assert.strictEqual(doublingDelayMs(policy, 11), 600_000)
    assert.strictEqual(doublingDelayMs(policy, 1_000), 600_000)
  })

  it("treats no attempt yet like the first", () => {
    assert.strictEqual(doublingDelayMs(policy, 0), 1_000)
  })
})

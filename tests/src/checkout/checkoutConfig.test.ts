import { assert, describe, it } from "@effect/vitest"
import { Redacted } from "effect"
import { configFrom } from "../support/Session.ts"

/** The reason `env` is refused at startup. */
const refusal = (env: Record<string, string>) =>
  configFrom(env).then(
    () => assert.fail(`${JSON.stringify(env)} was accepted`),
    (error: unknown) => String(error)
  )

describe("checkout configuration", () => {
  it("defaults to no tolerance, a 1.5 s deadline and a random card number key", async () => {
    const config = await configFrom({})
    assert.strictEqual(config.cardAuthToleranceMinor, 0)
    assert.strictEqual(config.cardAuthDeadlineMs, 1_500)
    const other = await configFrom({})
    assert.isAtLeast(Redacted.value(config.cardNumberKey).length, 32)
    assert.notStrictEqual(Redacted.value(config.cardNumberKey), Redacted.value(other.cardNumberKey))
  })

  it("reads CARD_AUTH_TOLERANCE_MINOR, CARD_AUTH_DEADLINE_MS and CARD_NUMBER_KEY, the key kept redacted", async () => {
    const config = await configFrom({
      CARD_AUTH_TOLERANCE_MINOR: "250",
      CARD_AUTH_DEADLINE_MS: "100",
      CARD_NUMBER_KEY: "a-card-number-key"
    })
    assert.strictEqual(config.cardAuthToleranceMinor, 250)
    assert.strictEqual(config.cardAuthDeadlineMs, 100)
    assert.strictEqual(Redacted.value(config.cardNumberKey), "a-card-number-key")
    assert.notInclude(String(config.cardNumberKey), "a-card-number-key")
    assert.strictEqual((await configFrom({ CARD_AUTH_DEADLINE_MS: "10000" })).cardAuthDeadlineMs, 10_000)
  })

  it("refuses a bad value at startup, naming the variable", async () => {
    for (const value of ["-1", "1.5", "ten"]) {
      assert.include(await refusal({ CARD_AUTH_TOLERANCE_MINOR: value }), "CARD_AUTH_TOLERANCE_MINOR", value)
    }
    for (const value of ["99", "10001", "0", "fast"]) {
      assert.include(await refusal({ CARD_AUTH_DEADLINE_MS: value }), "CARD_AUTH_DEADLINE_MS", value)
    }
  })
})

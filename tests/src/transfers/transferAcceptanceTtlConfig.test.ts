import { assert, describe, it } from "@effect/vitest"
import { configFrom } from "../support/Session.ts"

describe("TRANSFER_ACCEPTANCE_TTL_SECONDS", () => {
  it("defaults to 7 days and takes a positive whole number of seconds", async () => {
    assert.strictEqual((await configFrom({})).transferAcceptanceTtlSeconds, 7 * 86_400)
    assert.strictEqual(
      (await configFrom({ TRANSFER_ACCEPTANCE_TTL_SECONDS: "3600" })).transferAcceptanceTtlSeconds,
      3_600
    )
  })

  it("refuses zero, negative, fractional and non-numeric values at startup", async () => {
    for (const value of ["0", "-5", "1.5", "a week"]) {
      await configFrom({ TRANSFER_ACCEPTANCE_TTL_SECONDS: value }).then(
        () => assert.fail(`${value} was accepted`),
        () => undefined
      )
    }
  })
})

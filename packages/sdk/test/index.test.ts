import { assert, describe, it } from "@effect/vitest"
import * as Sdk from "../src/index.ts"

describe("the SDK's public entry", () => {
  it("offers the waits for a decision, not the polling loop they share", () => {
    assert.isFunction(Sdk.awaitDecision)
    assert.isFunction(Sdk.waitForDecision)
    assert.notProperty(Sdk, "untilDecided")
  })
})

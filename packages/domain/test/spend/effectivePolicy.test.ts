import { assert, describe, it } from "@effect/vitest"
import { effectivePolicy } from "../../src/spend/SpendPolicy.ts"
import { codes } from "./SpendPolicySetup.ts"

describe("effectivePolicy", () => {
  it("fills fields the key is silent on from team defaults", () => {
    const merged = effectivePolicy(
      { perRequestLimit: 1000, blockedMerchants: ["Key Blocked"] },
      { perRequestLimit: 5000, dailyBudget: 20_000, blockedMerchants: ["Team Blocked"], approvalTtlSeconds: 3600 }
    )
    assert.deepStrictEqual(merged, {
      perRequestLimit: 1000,
      dailyBudget: 20_000,
      blockedMerchants: ["Key Blocked"],
      approvalTtlSeconds: 3600
    })
  })

  it("keeps a key's explicit empty list over the team's list", () => {
    assert.deepStrictEqual(effectivePolicy({ allowedCategories: [] }, { allowedCategories: ["travel"] }), {
      allowedCategories: []
    })
  })

  it("keeps a key's zero over the team's value", () => {
    assert.deepStrictEqual(effectivePolicy({ approvalThreshold: 0 }, { approvalThreshold: 10_000 }), {
      approvalThreshold: 0
    })
  })

  it("returns the team defaults for a silent key and the key for silent defaults", () => {
    const team = { monthlyBudget: 100_000, allowedMerchants: ["Acme"] }
    assert.deepStrictEqual(effectivePolicy({}, team), team)
    assert.deepStrictEqual(effectivePolicy(team, {}), team)
    assert.deepStrictEqual(effectivePolicy({}, {}), {})
  })

  it("does not mutate its inputs", () => {
    const key = { perRequestLimit: 1 }
    const team = { dailyBudget: 2 }
    effectivePolicy(key, team)
    assert.deepStrictEqual(key, { perRequestLimit: 1 })
    assert.deepStrictEqual(team, { dailyBudget: 2 })
  })

  it("feeds evaluateSpend so team rules apply to silent keys", () => {
    const policy = effectivePolicy(
      { perRequestLimit: 10_000 },
      { blockedCategories: ["software"], perRequestLimit: 10 }
    )
    assert.deepStrictEqual(codes({ policy }), ["category_blocked"])
  })
})

import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import type { DecisionInputs } from "../../src/governance/model.ts"
import { carryForward, knownMerchantKey } from "../../src/spend/SpendDecision.ts"
import { NO_USAGE } from "../../src/spend/SpendPolicy.ts"
import { usageWindows } from "../../src/spend/SpendRequest.ts"
import type { DecidedSpend } from "../../src/spend/SpendRequestsRepo.ts"

const windows = usageWindows(Date.parse("2026-11-23T12:00:00.000Z"), null)

const read = (merchantKnown: boolean): DecisionInputs => ({
  spendAccount: Option.none(),
  settlementAccount: Option.none(),
  teamPolicy: {},
  spent: NO_USAGE,
  categorySpent: NO_USAGE,
  recentRequests: [],
  requestsToday: 0,
  merchantKnown,
  governance: { freezes: [], approvalTiers: [], keyCreatedBy: null }
})

/** What a decided request of team `teamId` that paid `knownMerchant` (or nothing) hands `record`. */
const decided = (teamId: string, knownMerchant: string | null) =>
  ({
    request: { teamId, mode: "test", spendingKeyId: "key" },
    approval: null,
    ledgerTransaction: null,
    usage: { windows, amount: 0, at: 0 },
    events: [],
    knownMerchant
  }) as unknown as DecidedSpend

describe("carryForward: merchants a batch pays", () => {
  it("makes a merchant paid earlier in the batch known to the team's later requests, and to no other team", () => {
    const state = carryForward(
      [read(false), read(false), read(false), read(false)],
      [windows, windows, windows, windows]
    )
    const shop = knownMerchantKey("team-a", "test", "shop")
    assert.isFalse(state.inputsOf(0, "key", shop).merchantKnown)
    state.record(decided("team-a", "shop"), read(false))
    assert.isTrue(state.inputsOf(1, "key", shop).merchantKnown)
    assert.isFalse(state.inputsOf(2, "key", knownMerchantKey("team-b", "test", "shop")).merchantKnown)
    assert.isFalse(state.inputsOf(2, "key", knownMerchantKey("team-a", "live", "shop")).merchantKnown)
    assert.isFalse(state.inputsOf(3, "key", knownMerchantKey("team-a", "test", "other")).merchantKnown)
    assert.isFalse(state.inputsOf(3, "key").merchantKnown)
  })

  it("teaches nothing for a request that paid nothing, and keeps what the store already knew", () => {
    const state = carryForward([read(false), read(true)], [windows, windows])
    state.record(decided("team-a", null), read(false))
    assert.isFalse(state.inputsOf(0, "key", knownMerchantKey("team-a", "test", "shop")).merchantKnown)
    assert.isTrue(state.inputsOf(1, "key", knownMerchantKey("team-a", "test", "shop")).merchantKnown)
  })
})

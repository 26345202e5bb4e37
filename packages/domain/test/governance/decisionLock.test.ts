import { assert, describe, it } from "@effect/vitest"
import type { AgentPrincipal } from "../../src/access/model.ts"
import { decisionLock } from "../../src/governance/model.ts"
import { AccountId, TeamId } from "../../src/shared/model.ts"

const agent: AgentPrincipal = {
  kind: "spending_key",
  keyId: "key-1",
  teamId: TeamId.make("00000000-0000-4000-8000-000000000001"),
  mode: "test",
  accountId: AccountId.make("00000000-0000-4000-8000-000000000002"),
  scopes: null,
  policy: { maxRequestsPerHour: 5 }
}

/** Wednesday 18 November 2026, 12:00 UTC. */
const NOW = Date.UTC(2026, 10, 18, 12)

describe("decisionLock", () => {
  it("locks the account asked, the credential's totals in the windows of the moment and its category", () => {
    const lock = decisionLock(agent, AccountId.make("00000000-0000-4000-8000-000000000003"), NOW, " Travel ", "acme")
    assert.strictEqual(lock.accountId, "00000000-0000-4000-8000-000000000003")
    assert.strictEqual(lock.spendingKeyId, "key-1")
    assert.strictEqual(lock.teamId, "00000000-0000-4000-8000-000000000001")
    assert.strictEqual(lock.mode, "test")
    assert.strictEqual(lock.at, NOW)
    assert.strictEqual(lock.windows.category, "travel")
    assert.strictEqual(lock.windows.day, "2026-11-18T00:00:00.000Z")
    assert.deepStrictEqual(lock.requestLimits, { maxRequestsPerHour: 5 })
    assert.strictEqual(lock.merchant, "acme")
  })

  it("reads the team's limits alone for a key without a policy, and no category or merchant when none is given", () => {
    const lock = decisionLock({ ...agent, kind: "team_key", policy: null }, null, NOW, null)
    assert.strictEqual(lock.accountId, null)
    assert.deepStrictEqual(lock.requestLimits, {})
    assert.strictEqual(lock.windows.category, null)
    assert.strictEqual(lock.merchant, undefined)
  })
})

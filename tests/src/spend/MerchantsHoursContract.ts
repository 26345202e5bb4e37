import { assert, layer } from "@effect/vitest"
import { AgentKeys, type AllowedHours, Ledger, SpendRequests, SpendRequestsRepo, usageWindows } from "@svc/domain"
import { Clock, Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { domainOver, fundedAgent, type Ports, spend } from "./SpendSetup.ts"

/**
 * The test clock starts at the epoch, Thursday 1970-01-01 00:00 UTC, and the tests of a file share it: windows are
 * placed around the minute it shows, on that Thursday (these tests move it by minutes).
 */
const minuteNow = (millis: number) => {
  if (millis >= 86_400_000 - 3 * 3_600_000) throw new Error("the shared test clock left the first Thursday")
  return Math.floor(millis / 60_000)
}
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`
const thursdayUtc = (from: number, to: number): AllowedHours => ({
  timezone: "UTC",
  days: ["thu"],
  from: hhmm(from),
  to: hhmm(to)
})

/** New-merchant review and allowed hours, on every adapter set: what is decided, held, and remembered. */
export const merchantsHoursContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(domainOver(ports), { timeout: "120 seconds" })(`New merchants and allowed hours (${name})`, (it) => {
    it.effect("the first request to a merchant goes to approval; once approved and posted the team knows it", () =>
      Effect.gen(function* () {
        const { team, agent, approver, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { reviewNewMerchants: true, approvalThreshold: 5_000 }
        })
        const first = yield* spend(agent, 10, "Acme  Cloud")
        assert.strictEqual(first.status, "pending_approval")
        assert.deepStrictEqual(first.decision.reasons, [
          {
            code: "new_merchant",
            message: 'the team has never paid merchant "Acme  Cloud"; its first request needs approval',
            approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false }
          }
        ])
        const second = yield* spend(agent, 20, "acme cloud")
        assert.strictEqual(second.status, "pending_approval", "still unknown while the first waits")
        const ledger = yield* Ledger
        assert.strictEqual((yield* ledger.account(team.id, key.accountId)).balance.pending, 30)

        yield* SpendRequests.use((s) => s.deny(approver, second.approval!.id, null))
        assert.strictEqual(
          (yield* spend(agent, 5, "ACME CLOUD")).status,
          "pending_approval",
          "a denial teaches nothing"
        )

        yield* SpendRequests.use((s) => s.approve(approver, first.approval!.id, null))
        const known = yield* spend(agent, 30, " ACME cloud ")
        assert.strictEqual(known.status, "approved")
        assert.deepStrictEqual(known.decision.reasons, [])
        const big = yield* spend(agent, 6_000, "Acme Cloud")
        assert.deepStrictEqual(
          big.decision.reasons.map((r) => r.code),
          ["approval_threshold"],
          "a known merchant still meets the threshold"
        )
        const other = yield* spend(agent, 10, "Other Shop")
        assert.deepStrictEqual(
          other.decision.reasons.map((r) => r.code),
          ["new_merchant"]
        )
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a merchant is known per team, and paying at once under a key without review teaches the team", () =>
      Effect.gen(function* () {
        const a = yield* fundedAgent({ funds: 10_000, policy: { reviewNewMerchants: true } })
        const b = yield* fundedAgent({ funds: 10_000, policy: {} })
        assert.strictEqual((yield* spend(b.agent, 10, "Shared Shop")).status, "approved")
        assert.strictEqual(
          (yield* spend(a.agent, 10, "Shared Shop")).status,
          "pending_approval",
          "another team's payment teaches nothing"
        )
        const keys = yield* AgentKeys
        yield* keys.setTeamPolicy(a.team.id, { reviewNewMerchants: true })
        const { secret } = yield* keys.issueSpendingKey({
          teamId: a.team.id,
          createdBy: a.approver.userId,
          name: "no review",
          mode: "test",
          policy: { reviewNewMerchants: false }
        })
        const unreviewed = Option.getOrThrow(yield* keys.authenticate(secret))
        assert.strictEqual((yield* spend(unreviewed, 10, "Fresh Shop")).status, "approved")
        assert.strictEqual((yield* spend(a.agent, 10, "fresh shop")).status, "approved")
        const repo = yield* SpendRequestsRepo
        const [inputs] = yield* repo.lockForDecisions([
          {
            teamId: a.team.id,
            mode: "test",
            accountId: null,
            spendingKeyId: a.key.id,
            windows: usageWindows(Date.parse("2026-01-01T12:00:00.000Z"), null),
            at: Date.parse("2026-01-01T12:00:00.000Z"),
            requestLimits: {},
            merchant: "fresh shop"
          }
        ])
        assert.isTrue(inputs?.merchantKnown)
      })
    )

    it.effect("a name that normalisation lengthens (NFKC) is remembered like any other", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { reviewNewMerchants: true } })
        const long = "\ufdfa".repeat(200)
        const first = yield* spend(agent, 10, long)
        assert.strictEqual(first.status, "pending_approval")
        yield* SpendRequests.use((s) => s.approve(approver, first.approval!.id, null))
        assert.strictEqual((yield* spend(agent, 10, long)).status, "approved")
      })
    )

    it.effect("concurrent first requests to a new merchant all wait for approval; none is paid unreviewed", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({ funds: 10_000, policy: { reviewNewMerchants: true } })
        const decided = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => spend(agent, 10 + i, i % 2 === 0 ? "Burst Shop" : "BURST shop"),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(new Set(decided.map((sr) => sr.status)), new Set(["pending_approval"]))
        const balance = (yield* (yield* Ledger).account(team.id, key.accountId)).balance
        assert.deepStrictEqual(balance, { posted: 10_000, pending: 390, available: 9_610 })
      })
    )

    it.effect("outside the allowed hours a request is denied with the next allowed time, holding nothing", () =>
      Effect.gen(function* () {
        const minute = minuteNow(yield* Clock.currentTimeMillis)
        const { team, agent, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { allowedHours: thursdayUtc(minute + 1, minute + 61) }
        })
        const opens = new Date((minute + 1) * 60_000).toISOString()
        const denied = yield* spend(agent, 100)
        assert.strictEqual(denied.status, "denied")
        assert.deepStrictEqual(denied.decision.reasons, [
          {
            code: "outside_allowed_hours",
            message: `requests are allowed thu ${hhmm(minute + 1)}-${hhmm(minute + 61)} UTC; the next allowed time is ${opens}`,
            nextAllowedAt: opens
          }
        ])
        assert.deepStrictEqual((yield* (yield* Ledger).account(team.id, key.accountId)).balance, {
          posted: 10_000,
          pending: 0,
          available: 10_000
        })
        yield* TestClock.setTime(Date.parse(opens))
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
      })
    )

    it.effect("with outsideHours approval, a request outside them is held for approval and posts once approved", () =>
      Effect.gen(function* () {
        const minute = minuteNow(yield* Clock.currentTimeMillis)
        const { team, agent, key, approver } = yield* fundedAgent({
          funds: 10_000,
          policy: { allowedHours: thursdayUtc(minute, minute + 1), outsideHours: "approval" }
        })
        yield* TestClock.setTime(minute * 60_000)
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
        yield* TestClock.setTime((minute + 1) * 60_000)
        const held = yield* spend(agent, 200)
        assert.strictEqual(held.status, "pending_approval")
        assert.deepStrictEqual(
          held.decision.reasons.map((r) => [r.code, r.nextAllowedAt]),
          [["outside_allowed_hours", new Date((minute + 7 * 1440) * 60_000).toISOString()]]
        )
        const ledger = yield* Ledger
        assert.strictEqual((yield* ledger.account(team.id, key.accountId)).balance.pending, 200)
        const approved = yield* SpendRequests.use((s) => s.approve(approver, held.approval!.id, null))
        assert.strictEqual(approved.status, "approved")
        assert.deepStrictEqual((yield* ledger.account(team.id, key.accountId)).balance, {
          posted: 9_700,
          pending: 0,
          available: 9_700
        })
        yield* assertLedgerInvariants(team.id)
      })
    )
  })

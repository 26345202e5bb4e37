import { assert, layer } from "@effect/vitest"
import {
  AgentKeys,
  type AgentPrincipal,
  type DecisionReason,
  decisionLock,
  isoOfMillis,
  Ledger,
  nextPeriodStart,
  nextUtcDayStart,
  pageRequest,
  type SpendDecision,
  type SpendPolicy,
  SpendRequests,
  SpendRequestsRepo
} from "@svc/domain"
import { Clock, Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { send, type TransferPorts, transfersDomainOver, twoTeams } from "../transfers/TransferDomainSetup.ts"
import { fundedAgent, spend } from "./SpendSetup.ts"

const HOUR = 3_600_000
const codesOf = (d: SpendDecision) => d.reasons.map((r) => r.code)
const reasonOf = (d: SpendDecision, code: string): DecisionReason => {
  const reason = d.reasons.find((r) => r.code === code)
  assert.isDefined(reason, `no ${code} among ${codesOf(d).join(", ")}`)
  return reason as DecisionReason
}
const all = <A, E, R>(n: number, work: () => Effect.Effect<A, E, R>) =>
  Effect.forEach(Array.from({ length: n }), work, { concurrency: "unbounded" })
const evaluate = (agent: AgentPrincipal, amount: number, merchant = "OpenAI", category = "software") =>
  SpendRequests.use((s) =>
    s.evaluate(agent, { amount, currency: "USD", merchant: { name: merchant, category }, purpose: "tokens" })
  )

/**
 * How every adapter set keeps budget intervals, category budgets and velocity limits: exact under concurrency, in the
 * periods they count, for every kind of governed ask; and how the dry run answers what create then does.
 */
export const spendBudgetsContract = <E>(name: string, ports: Layer.Layer<TransferPorts, E>) => {
  layer(transfersDomainOver(ports), { timeout: "120 seconds" })(`Spend budgets and velocity (${name})`, (it) => {
    it.effect("50 concurrent requests against maxRequestsPerHour 10 approve exactly 10; the hour then rolls on", () =>
      Effect.gen(function* () {
        const { team, agent } = yield* fundedAgent({ funds: 1_000_000, policy: { maxRequestsPerHour: 10 } })
        const start = yield* Clock.currentTimeMillis
        const results = yield* all(50, () => spend(agent, 100))
        assert.strictEqual(results.filter((r) => r.status === "approved").length, 10)
        const denied = results.filter((r) => r.status === "denied")
        assert.strictEqual(denied.length, 40)
        for (const r of denied) {
          const reason = reasonOf(r.decision, "velocity_exceeded")
          assert.deepStrictEqual([reason.interval, reason.limit, reason.used, reason.remaining], ["hour", 10, 10, 0])
          assert.strictEqual(reason.nextAllowedAt, isoOfMillis(start + 3_600_000))
        }
        yield* TestClock.adjust("59 minutes")
        assert.deepStrictEqual(codesOf((yield* spend(agent, 100)).decision), ["velocity_exceeded"])
        yield* TestClock.adjust("1 minute")
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("maxRequestsPerDay counts approved and pending requests, not denied ones, until the next UTC day", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({
          funds: 10_000,
          policy: { maxRequestsPerDay: 3, approvalThreshold: 5_000, perRequestLimit: 8_000 }
        })
        assert.strictEqual((yield* spend(agent, 9_000)).status, "denied")
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
        assert.strictEqual((yield* spend(agent, 6_000)).status, "pending_approval")
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
        const fourth = yield* spend(agent, 100)
        const reason = reasonOf(fourth.decision, "velocity_exceeded")
        assert.deepStrictEqual([reason.interval, reason.used, reason.limit], ["day", 3, 3])
        const now = yield* Clock.currentTimeMillis
        assert.strictEqual(reason.nextAllowedAt, isoOfMillis(nextUtcDayStart(now)))
        yield* TestClock.adjust(nextUtcDayStart(now) - now - 1)
        assert.strictEqual((yield* spend(agent, 100)).status, "denied")
        yield* TestClock.adjust(1)
        assert.strictEqual((yield* spend(agent, 100)).status, "approved")
      })
    )

    it.effect("a team's velocity limit counts spend requests and transfers of the key alike", () =>
      Effect.gen(function* () {
        const { sender, address } = yield* twoTeams(100_000)
        yield* AgentKeys.use((k) => k.setTeamPolicy(sender.team.id, { maxRequestsPerHour: 4 }))
        const [spent, sent] = yield* Effect.all(
          [all(3, () => spend(sender.agent, 100)), all(3, () => send(sender.agent, { to: { address }, amount: 100 }))],
          { concurrency: "unbounded" }
        )
        const allowed = [...spent, ...sent].filter((r) => r.decision.outcome !== "denied")
        assert.strictEqual(allowed.length, 4)
        assert.strictEqual((yield* send(sender.agent, { to: { address } })).status, "denied")
      })
    )

    it.effect("a weekly budget holds under concurrency and resets on Monday 00:00 UTC, not before", () =>
      Effect.gen(function* () {
        const { team, agent } = yield* fundedAgent({ funds: 1_000_000, policy: { weeklyBudget: 5_000 } })
        const now = yield* Clock.currentTimeMillis
        const monday = nextPeriodStart("week", now)
        yield* TestClock.adjust(monday + HOUR - now)
        const results = yield* all(20, () => spend(agent, 1_000))
        assert.strictEqual(results.filter((r) => r.status === "approved").length, 5)
        yield* TestClock.adjust(6 * 24 * HOUR + 22 * HOUR)
        const sunday = yield* spend(agent, 1)
        const reason = reasonOf(sunday.decision, "weekly_budget_exceeded")
        assert.deepStrictEqual([reason.limit, reason.used, reason.remaining], [5_000, 5_000, 0])
        assert.strictEqual(reason.resetsAt, isoOfMillis(monday + 7 * 24 * HOUR))
        yield* TestClock.adjust(HOUR - 1)
        assert.strictEqual((yield* spend(agent, 1)).status, "denied")
        yield* TestClock.adjust(1)
        assert.strictEqual((yield* spend(agent, 5_000)).status, "approved")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("monthly, yearly and lifetime budgets count across months; the monthly one resets, the others not", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({
          funds: 1_000_000,
          policy: { monthlyBudget: 2_000, yearlyBudget: 3_000, lifetimeBudget: 4_000 }
        })
        const now = yield* Clock.currentTimeMillis
        const nextMonth = nextPeriodStart("month", now)
        // The first day of a month that is not January: a month later is still the same year.
        yield* TestClock.adjust(
          (new Date(nextMonth).getUTCMonth() === 0 ? nextPeriodStart("month", nextMonth) : nextMonth) - now
        )
        assert.strictEqual((yield* spend(agent, 2_000)).status, "approved")
        assert.deepStrictEqual(codesOf((yield* spend(agent, 1)).decision), ["monthly_budget_exceeded"])
        yield* TestClock.adjust("32 days")
        const year = yield* spend(agent, 1_500)
        assert.deepStrictEqual(codesOf(year.decision), ["yearly_budget_exceeded"])
        const at = yield* Clock.currentTimeMillis
        assert.strictEqual(
          reasonOf(year.decision, "yearly_budget_exceeded").resetsAt,
          isoOfMillis(nextPeriodStart("year", at))
        )
        assert.strictEqual((yield* spend(agent, 1_000)).status, "approved")
        const lifetime = yield* spend(agent, 1_001)
        assert.deepStrictEqual(codesOf(lifetime.decision), [
          "monthly_budget_exceeded",
          "yearly_budget_exceeded",
          "lifetime_budget_exceeded"
        ])
        assert.isUndefined(reasonOf(lifetime.decision, "lifetime_budget_exceeded").resetsAt)
      })
    )

    it.effect("a category budget holds under concurrency for its category only", () =>
      Effect.gen(function* () {
        const policy: SpendPolicy = { categoryBudgets: [{ category: "travel", interval: "month", amount: 5_000 }] }
        const { team, agent } = yield* fundedAgent({ funds: 1_000_000, policy })
        const [travel, software] = yield* Effect.all(
          [all(12, () => spend(agent, 1_000, "Air", "travel")), all(12, () => spend(agent, 1_000, "Acme", "software"))],
          { concurrency: "unbounded" }
        )
        assert.strictEqual(travel.filter((r) => r.status === "approved").length, 5)
        assert.isTrue(software.every((r) => r.status === "approved"))
        const over = travel.find((r) => r.status === "denied")!
        const reason = reasonOf(over.decision, "category_budget_exceeded")
        assert.deepStrictEqual(
          [reason.category, reason.interval, reason.limit, reason.used],
          ["travel", "month", 5_000, 5_000]
        )
        assert.strictEqual((yield* spend(agent, 1_000, "Air", " TRAVEL ")).status, "denied")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a canceled, denied or expired request gives back its category and interval totals", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({
          funds: 100_000,
          policy: {
            approvalThreshold: 1,
            approvalTtlSeconds: 60,
            weeklyBudget: 5_000,
            categoryBudgets: [{ category: "travel", interval: "lifetime", amount: 4_000 }]
          }
        })
        const service = yield* SpendRequests
        const first = yield* spend(agent, 4_000, "Air", "travel")
        assert.deepStrictEqual(codesOf((yield* spend(agent, 1, "Air", "travel")).decision), [
          "category_budget_exceeded"
        ])
        yield* service.cancel(agent, first.id)
        const second = yield* spend(agent, 4_000, "Air", "travel")
        assert.strictEqual(second.status, "pending_approval")
        yield* service.deny(approver, second.approval!.id, null)
        const third = yield* spend(agent, 4_000, "Air", "travel")
        yield* TestClock.adjust("61 seconds")
        assert.strictEqual((yield* service.get(third.teamId, "test", third.id)).status, "expired")
        const fourth = yield* spend(agent, 4_000, "Air", "travel")
        yield* service.approve(approver, fourth.approval!.id, null)
        const after = yield* spend(agent, 1_001, "Air", "travel")
        assert.deepStrictEqual(codesOf(after.decision), ["weekly_budget_exceeded", "category_budget_exceeded"])
      })
    )

    it.effect("transfers count in the book_transfer category budget and give it back when released", () =>
      Effect.gen(function* () {
        const { sender, address } = yield* twoTeams(100_000, {
          categoryBudgets: [{ category: "book_transfer", interval: "day", amount: 3_000 }]
        })
        const sent = yield* send(sender.agent, { to: { address }, amount: 3_000 })
        assert.strictEqual(sent.status, "pending_acceptance")
        const over = yield* send(sender.agent, { to: { address }, amount: 1 })
        assert.strictEqual(reasonOf(over.decision, "category_budget_exceeded").category, "book_transfer")
        assert.strictEqual((yield* spend(sender.agent, 1_000, "Acme", "software")).status, "approved")
      })
    )

    it.effect(
      "evaluate answers what create then does, for every reason code of budgets, velocity and new merchants",
      () =>
        Effect.gen(function* () {
          const cases: ReadonlyArray<{
            readonly code: string
            readonly policy: SpendPolicy
            readonly before: ReadonlyArray<readonly [number, string]>
            readonly amount: number
            readonly category?: string
            readonly funds?: number
            /** A merchant the team paid (by another spelling of its name) before the key got `policy`, so it is known. */
            readonly paidBefore?: string
          }> = [
            { code: "merchant_blocked", policy: { blockedMerchants: ["OpenAI"] }, before: [], amount: 100 },
            { code: "category_blocked", policy: { blockedCategories: ["software"] }, before: [], amount: 100 },
            { code: "amount_over_limit", policy: { perRequestLimit: 50 }, before: [], amount: 100 },
            {
              code: "velocity_exceeded",
              policy: { maxRequestsPerHour: 2 },
              before: [
                [10, "software"],
                [10, "software"]
              ],
              amount: 100
            },
            { code: "velocity_exceeded", policy: { maxRequestsPerDay: 1 }, before: [[10, "software"]], amount: 100 },
            { code: "daily_budget_exceeded", policy: { dailyBudget: 1_000 }, before: [[950, "software"]], amount: 100 },
            {
              code: "weekly_budget_exceeded",
              policy: { weeklyBudget: 1_000 },
              before: [[950, "software"]],
              amount: 100
            },
            {
              code: "monthly_budget_exceeded",
              policy: { monthlyBudget: 1_000 },
              before: [[950, "software"]],
              amount: 100
            },
            {
              code: "yearly_budget_exceeded",
              policy: { yearlyBudget: 1_000 },
              before: [[950, "software"]],
              amount: 100
            },
            {
              code: "lifetime_budget_exceeded",
              policy: { lifetimeBudget: 1_000 },
              before: [[950, "software"]],
              amount: 100
            },
            {
              code: "category_budget_exceeded",
              policy: { categoryBudgets: [{ category: "travel", interval: "week", amount: 1_000 }] },
              before: [
                [950, "travel"],
                [500, "software"]
              ],
              amount: 100,
              category: "travel"
            },
            { code: "insufficient_funds", policy: {}, before: [], amount: 100, funds: 50 },
            { code: "approval_threshold", policy: { approvalThreshold: 100 }, before: [], amount: 100 },
            { code: "new_merchant", policy: { reviewNewMerchants: true }, before: [], amount: 100 },
            {
              code: "approved",
              policy: { reviewNewMerchants: true },
              before: [],
              paidBefore: "openai ",
              amount: 100
            },
            {
              code: "approved",
              policy: { dailyBudget: 1_000, maxRequestsPerHour: 2 },
              before: [[900, "software"]],
              amount: 100
            }
          ]
          for (const c of cases) {
            const funded = yield* fundedAgent({
              funds: c.funds ?? 100_000,
              policy: c.paidBefore === undefined ? c.policy : {}
            })
            for (const [amount, category] of c.before) yield* spend(funded.agent, amount, "Acme", category)
            if (c.paidBefore !== undefined) yield* spend(funded.agent, 10, c.paidBefore, "software")
            // The key's policy as it is after the change that follows paying the merchant.
            const agent = { ...funded.agent, policy: c.policy }
            const dry = yield* evaluate(agent, c.amount, "OpenAI", c.category ?? "software")
            const again = yield* evaluate(agent, c.amount, "OpenAI", c.category ?? "software")
            const created = yield* spend(agent, c.amount, "OpenAI", c.category ?? "software")
            assert.deepStrictEqual(dry, created.decision, c.code)
            assert.deepStrictEqual(again, dry, `${c.code}: a dry run counts nothing`)
            assert.include([...codesOf(dry), dry.outcome], c.code)
          }
        })
    )

    it.effect("evaluate writes nothing: no request, no money moved, no budget use, no request counted", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { maxRequestsPerHour: 1, dailyBudget: 1_000, approvalThreshold: 900 }
        })
        const service = yield* SpendRequests
        const page = yield* pageRequest(undefined, 100)
        const state = Effect.all([
          service.list(team.id, {}, page),
          Ledger.use((l) => l.account(team.id, key.accountId)),
          SpendRequestsRepo.use((r) => r.readForDecision(decisionLock(agent, key.accountId, 0, "software")))
        ])
        const before = yield* state
        for (let i = 0; i < 5; i++) {
          const dry = yield* evaluate(agent, 1_000)
          assert.strictEqual(dry.outcome, "pending_approval")
        }
        assert.deepStrictEqual(yield* state, before)
        const created = yield* spend(agent, 1_000)
        assert.strictEqual(created.status, "pending_approval")
      })
    )

    it.effect("evaluate refuses what create refuses: a bad amount, another currency, an unknown account", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 1_000 })
        const service = yield* SpendRequests
        const input = { amount: 100, currency: "USD", merchant: { name: "Acme" }, purpose: "p" }
        const refusal = (over: object) => Effect.flip(service.evaluate(agent, { ...input, ...over }))
        assert.strictEqual((yield* refusal({ amount: 0 }))._tag, "SpendRequestInvalid")
        assert.strictEqual((yield* refusal({ amount: 1.5 }))._tag, "SpendRequestInvalid")
        const currency = yield* refusal({ currency: "EUR" })
        assert.deepStrictEqual(
          [currency._tag, "field" in currency ? currency.field : ""],
          ["SpendRequestInvalid", "currency"]
        )
        const account = yield* refusal({ accountId: crypto.randomUUID() })
        assert.deepStrictEqual(
          [account._tag, "field" in account ? account.field : ""],
          ["SpendRequestInvalid", "accountId"]
        )
      })
    )
  })
}

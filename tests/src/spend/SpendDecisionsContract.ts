import { assert, layer } from "@effect/vitest"
import {
  type AccountId,
  AgentKeys,
  Ledger,
  pageRequest,
  type SpendRequest,
  SpendRequests,
  spendBatchSizes
} from "@svc/domain"
import { Effect, type Layer, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { allTransactions, assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { domainOver, fundedAgent, POISON, type Ports, poisonedInserts, spend } from "./SpendSetup.ts"

/**
 * Runs `work` and asserts it went through the spend writer as `requests` requests committed in fewer batches than
 * requests (so at least one batch carried several), reading the `spend_batch_size` histogram before and after.
 */
const inSharedBatches =
  (requests: number) =>
  <A, E, R>(work: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const before = yield* spendBatchSizes
      const value = yield* work
      const after = yield* spendBatchSizes
      assert.strictEqual(after.sum - before.sum, requests, "every request was committed in exactly one batch")
      assert.isBelow(after.count - before.count, requests, "some batch carried more than one request")
      assert.isAbove(after.max, 1, "the largest batch carried more than one request")
      return value
    })

/** How every adapter set decides new spend requests: funds, budgets, policy rules, accounts and isolation. */
export const spendDecisionsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) => {
  layer(domainOver(ports), { timeout: "120 seconds" })(`Spend requests (${name})`, (it) => {
    it.effect("50 concurrent requests of 10.00 against 200.00 approve exactly 20; nothing overdraws", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({ funds: 20_000 })
        const results = yield* Effect.forEach(Array.from({ length: 50 }), () => spend(agent, 1_000), {
          concurrency: "unbounded"
        }).pipe(inSharedBatches(50))
        assert.strictEqual(results.filter((r) => r.status === "approved").length, 20)
        const denied = results.filter((r) => r.status === "denied")
        assert.strictEqual(denied.length, 30)
        assert.isTrue(denied.every((r) => r.decision.reasons.some((reason) => reason.code === "insufficient_funds")))
        const balance = (yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance
        assert.deepStrictEqual(balance, { posted: 0, pending: 0, available: 0 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a daily budget holds under concurrency: 20 concurrent 10.00 against a 50.00 budget approve 5", () =>
      Effect.gen(function* () {
        const { team, agent } = yield* fundedAgent({ funds: 100_000, policy: { dailyBudget: 5_000 } })
        const results = yield* Effect.forEach(Array.from({ length: 20 }), () => spend(agent, 1_000), {
          concurrency: "unbounded"
        }).pipe(inSharedBatches(20))
        assert.strictEqual(results.filter((r) => r.status === "approved").length, 5)
        assert.isTrue(
          results
            .filter((r) => r.status === "denied")
            .every((r) => r.decision.reasons.map((x) => x.code).includes("daily_budget_exceeded"))
        )
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a team API key spends under the team's default budget, also under concurrency", () =>
      Effect.gen(function* () {
        const { team, approver } = yield* fundedAgent({ funds: 100_000 })
        const keys = yield* AgentKeys
        yield* keys.setTeamPolicy(team.id, { dailyBudget: 5_000 })
        const { secret } = yield* keys.issueTeamKey({
          teamId: team.id,
          createdBy: approver.userId,
          name: "ops",
          mode: "test",
          scopes: ["spend.write"]
        })
        const agent = Option.getOrThrow(yield* keys.authenticate(secret))
        assert.strictEqual(agent.kind, "team_key")
        const results = yield* Effect.forEach(Array.from({ length: 12 }), () => spend(agent, 1_000), {
          concurrency: "unbounded"
        })
        assert.strictEqual(results.filter((r) => r.status === "approved").length, 5)
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("new requests and decisions of earlier ones on one key and account, all at once, all succeed", () =>
      Effect.gen(function* () {
        const { team, agent, approver, key } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 1, dailyBudget: 25_000 }
        })
        const service = yield* SpendRequests
        const earlier = yield* Effect.forEach(Array.from({ length: 10 }), () => spend(agent, 1_000))
        const work: ReadonlyArray<Effect.Effect<SpendRequest, unknown, SpendRequests>> = [
          ...Array.from({ length: 10 }, () => spend(agent, 1_000)),
          ...earlier.map((sr, i) =>
            i % 2 === 0
              ? service.approve(approver, sr.approval!.id, null)
              : service.deny(approver, sr.approval!.id, null)
          )
        ]
        const results = yield* Effect.forEach(work, (w) => w, { concurrency: "unbounded" })
        assert.strictEqual(results.length, 20)
        const balance = (yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance
        assert.deepStrictEqual(balance, { posted: 95_000, pending: 10_000, available: 85_000 })
        const over = yield* spend(agent, 10_001)
        assert.deepStrictEqual(
          over.decision.reasons.map((r) => r.code),
          ["daily_budget_exceeded"]
        )
        assert.strictEqual((yield* spend(agent, 10_000)).status, "pending_approval")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect(
      "a canceled, denied or expired request stops counting against the key's budgets; an approved one keeps counting",
      () =>
        Effect.gen(function* () {
          const { agent, approver } = yield* fundedAgent({
            funds: 100_000,
            policy: { dailyBudget: 5_000, approvalThreshold: 1, approvalTtlSeconds: 60 }
          })
          const service = yield* SpendRequests
          const codes = (sr: { readonly decision: { readonly reasons: ReadonlyArray<{ readonly code: string }> } }) =>
            sr.decision.reasons.map((r) => r.code)
          const first = yield* spend(agent, 4_000)
          assert.include(codes(yield* spend(agent, 2_000)), "daily_budget_exceeded")
          yield* service.cancel(agent, first.id)
          const second = yield* spend(agent, 4_500)
          assert.strictEqual(second.status, "pending_approval")
          yield* service.deny(approver, second.approval!.id, null)
          const third = yield* spend(agent, 4_800)
          yield* TestClock.adjust("61 seconds")
          assert.strictEqual((yield* service.get(third.teamId, "test", third.id)).status, "expired")
          const fourth = yield* spend(agent, 5_000)
          yield* service.approve(approver, fourth.approval!.id, null)
          assert.include(codes(yield* spend(agent, 1)), "daily_budget_exceeded")
        })
    )

    it.effect("policy rules deny with their reason codes and move no money", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { blockedMerchants: ["Casino"], perRequestLimit: 5_000, allowedCategories: ["software"] }
        })
        const blocked = yield* spend(agent, 100, "casino")
        assert.deepStrictEqual(
          blocked.decision.reasons.map((r) => r.code),
          ["merchant_blocked"]
        )
        const both = yield* spend(agent, 6_000, "Airline", "travel")
        assert.deepStrictEqual(both.decision.reasons.map((r) => r.code).toSorted(), [
          "amount_over_limit",
          "category_blocked"
        ])
        assert.strictEqual((yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance.available, 10_000)
        assert.isNull(both.ledgerTransactionId)
      })
    )

    it.effect("team defaults apply where the key's policy is silent", () =>
      Effect.gen(function* () {
        const { team, agent } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 9_000 } })
        yield* AgentKeys.use((k) => k.setTeamPolicy(team.id, { perRequestLimit: 500, approvalThreshold: 100 }))
        const r = yield* spend(agent, 600)
        assert.deepStrictEqual(
          r.decision.reasons.map((x) => x.code),
          ["amount_over_limit"]
        )
        const ok = yield* spend(agent, 400)
        assert.strictEqual(ok.status, "approved")
      })
    )

    it.effect("teams and modes are isolated, and a revoked key stops authenticating", () =>
      Effect.gen(function* () {
        const a = yield* fundedAgent({ funds: 1_000 })
        const b = yield* fundedAgent({ funds: 1_000 })
        const mine = yield* spend(a.agent, 100)
        const service = yield* SpendRequests
        assert.strictEqual((yield* Effect.flip(service.get(b.team.id, "test", mine.id)))._tag, "SpendRequestNotFound")
        assert.strictEqual((yield* Effect.flip(service.get(a.team.id, "live", mine.id)))._tag, "SpendRequestNotFound")
        assert.strictEqual((yield* Effect.flip(service.cancel(b.agent, mine.id)))._tag, "SpendRequestNotFound")
        const keys = yield* AgentKeys
        yield* keys.revoke(a.team.id, "spending_key", a.key.id)
        assert.isTrue(Option.isNone(yield* keys.authenticate(a.secret)))
        assert.strictEqual((yield* Effect.flip(keys.revoke(a.team.id, "spending_key", a.key.id)))._tag, "KeyNotFound")
      })
    )

    it.effect("metadata reads back exactly as written, its keys untouched", () =>
      Effect.gen(function* () {
        const { team, agent } = yield* fundedAgent({ funds: 5_000 })
        const metadata = { order_id: "A-1", "Run-Name": "nightly", camelCase: "kept" }
        const created = yield* SpendRequests.use((s) =>
          s.create(agent, { amount: 100, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens", metadata })
        )
        const found = yield* SpendRequests.use((s) => s.get(team.id, "test", created.id))
        assert.deepStrictEqual(found.metadata, metadata)
      })
    )

    it.effect(
      "a named account spends only if it is a spend account of the agent's team and mode, in its currency",
      () =>
        Effect.gen(function* () {
          const { team, agent } = yield* fundedAgent({ funds: 1_000 })
          const other = yield* fundedAgent({ funds: 1_000 })
          const ledger = yield* Ledger
          const second = yield* ledger.openTeamAccounts({
            teamId: team.id,
            mode: "test",
            name: "Second",
            currency: "USD"
          })
          yield* ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: second.id,
            amount: 500,
            currency: "USD",
            reference: "second"
          })
          const service = yield* SpendRequests
          const create = (accountId: string, currency = "USD") =>
            service.create(agent, {
              amount: 100,
              currency,
              merchant: { name: "OpenAI" },
              purpose: "tokens",
              accountId: accountId as AccountId
            })
          const named = yield* create(second.id)
          assert.strictEqual(named.status, "approved")
          assert.strictEqual(named.accountId, second.id)
          assert.strictEqual((yield* ledger.account(team.id, second.id)).balance.posted, 400)
          const settlement = yield* ledger.settlementAccount(team.id, "test", "USD")
          const live = (yield* ledger.accounts(team.id, { mode: "live", kind: "spend" }))[0]!
          for (const accountId of [settlement.id, live.id, other.key.accountId]) {
            const error = yield* Effect.flip(create(accountId))
            assert.strictEqual(error._tag, "SpendRequestInvalid")
            assert.strictEqual((error as { field?: string }).field, "accountId")
          }
          const wrongCurrency = yield* Effect.flip(create(second.id, "EUR"))
          assert.strictEqual((wrongCurrency as { field?: string }).field, "currency")
          assert.strictEqual((yield* ledger.account(other.team.id, other.key.accountId)).balance.posted, 1_000)
          yield* assertLedgerInvariants(team.id)
        })
    )
  })

  const poisoned = poisonedInserts()
  layer(domainOver(ports, poisoned.decorate), { timeout: "120 seconds" })(`Spend batches (${name})`, (it) => {
    it.effect("a failing request inside a batch leaves its neighbours approved", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({ funds: 20_000 })
        const purposes = Array.from({ length: 11 }, (_, i) => (i === 5 ? POISON : "tokens"))
        const results = yield* Effect.forEach(
          purposes,
          (purpose) =>
            Effect.result(
              SpendRequests.use((s) =>
                s.create(agent, { amount: 1_000, currency: "USD", merchant: { name: "OpenAI" }, purpose })
              )
            ),
          { concurrency: "unbounded" }
        )
        const poison = results[5]!
        assert.isTrue(Result.isFailure(poison) && poison.failure._tag === "PersistenceUnavailable")
        const good = results.filter((r) => r !== poison).map((r) => Result.getOrThrow(r))
        assert.strictEqual(good.length, 10)
        assert.isTrue(good.every((r) => r.status === "approved" && r.ledgerTransactionId !== null))
        const balance = (yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance
        assert.deepStrictEqual(balance, { posted: 10_000, pending: 0, available: 10_000 })
        const page = yield* pageRequest(undefined, 100)
        const stored = yield* SpendRequests.use((s) => s.list(team.id, {}, page))
        assert.deepStrictEqual(stored.map((r) => r.id).toSorted(), good.map((r) => r.id).toSorted())
        const spent = (yield* allTransactions(team.id)).filter((tx) => tx.code === "spend_request")
        assert.deepStrictEqual(spent.map((tx) => tx.reference).toSorted(), good.map((r) => r.id).toSorted())
        yield* assertLedgerInvariants(team.id)
        const batches = poisoned.seen().filter((b) => b.poisoned)
        assert.isTrue(
          batches.some((b) => b.size > 1),
          `the poisoned request shared a batch: ${JSON.stringify(batches)}`
        )
        assert.strictEqual(batches.at(-1)?.size, 1, "and was retried alone")
      })
    )
  })
}

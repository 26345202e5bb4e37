import { assert, layer } from "@effect/vitest"
import {
  type AccountId,
  AgentKeys,
  type AgentKeysRepo,
  type AgentPrincipal,
  type ApprovalsRepo,
  type EventOutbox,
  Ledger,
  type LedgerRepo,
  nowIso,
  pageRequest,
  type SpendPolicy,
  type SpendRequest,
  SpendRequests,
  SpendRequestsRepo,
  type TeamPrincipal,
  Teams,
  type TeamsRepo,
  type Transactor,
  type UserId,
  Users,
  type UsersRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerContract.ts"

type Ports =
  | Transactor
  | UsersRepo
  | TeamsRepo
  | LedgerRepo
  | EventOutbox
  | AgentKeysRepo
  | ApprovalsRepo
  | SpendRequestsRepo

/** The spend services over whichever ports the caller provides. */
export const domainOver = <E>(ports: Layer.Layer<Ports, E>) =>
  Layer.mergeAll(Users.layer, Teams.layer, SpendRequests.layer).pipe(
    Layer.provideMerge(AgentKeys.layer),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A funded test-mode team with one spending key carrying `policy`; returns the agent and the owner as approver. */
export const fundedAgent = (opts: { readonly funds: number; readonly policy?: SpendPolicy }) =>
  Effect.gen(function* () {
    const teams = yield* Teams
    const ledger = yield* Ledger
    const keys = yield* AgentKeys
    const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
    const team = yield* teams.create(owner, { name: "Acme" })
    const { key, secret } = yield* keys.issueSpendingKey({
      teamId: team.id,
      createdBy: owner.id,
      name: "agent",
      mode: "test",
      policy: opts.policy ?? {}
    })
    if (opts.funds > 0) {
      yield* ledger.deposit({
        teamId: team.id,
        mode: "test",
        accountId: key.accountId,
        amount: opts.funds,
        currency: "USD",
        reference: "seed"
      })
    }
    const agent = Option.getOrThrow(yield* keys.authenticate(secret))
    const approver: TeamPrincipal = {
      kind: "session",
      userId: owner.id,
      teamId: team.id,
      role: "owner",
      scopes: null,
      credentialId: `session:${owner.id}`
    }
    return { team, key, secret, agent, approver }
  })

const spend = (agent: AgentPrincipal, amount: number, merchant = "OpenAI", category = "software") =>
  SpendRequests.use((s) =>
    s.create(agent, { amount, currency: "USD", merchant: { name: merchant, category }, purpose: "tokens" })
  )

/** Spend-request behaviour every adapter set must show. */
export const spendContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(domainOver(ports), { timeout: "120 seconds" })(`Spend requests (${name})`, (it) => {
    it.effect("50 concurrent requests of 10.00 against 200.00 approve exactly 20; nothing overdraws", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({ funds: 20_000 })
        const results = yield* Effect.forEach(Array.from({ length: 50 }), () => spend(agent, 1_000), {
          concurrency: "unbounded"
        })
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
        })
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

    it.effect("pending spend counts against budgets and funds; approval posts the held amount once", () =>
      Effect.gen(function* () {
        const { team, agent, approver, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { approvalThreshold: 5_000, monthlyBudget: 12_000 }
        })
        const pending = yield* spend(agent, 6_000)
        assert.strictEqual(pending.status, "pending_approval")
        assert.deepStrictEqual(
          pending.decision.reasons.map((r) => r.code),
          ["approval_threshold"]
        )
        assert.strictEqual(pending.approval?.status, "pending")
        const ledger = yield* Ledger
        assert.deepStrictEqual((yield* ledger.account(team.id, key.accountId)).balance, {
          posted: 10_000,
          pending: 6_000,
          available: 4_000
        })
        const over = yield* spend(agent, 4_500)
        assert.deepStrictEqual(
          over.decision.reasons.map((r) => r.code),
          ["insufficient_funds"]
        )
        const withinBudget = yield* spend(agent, 4_000)
        assert.strictEqual(withinBudget.status, "approved")
        const overBudget = yield* spend(agent, 2_001)
        assert.deepStrictEqual(
          overBudget.decision.reasons.map((r) => r.code),
          ["monthly_budget_exceeded", "insufficient_funds"]
        )
        const approved = yield* SpendRequests.use((s) => s.approve(approver, pending.approval!.id, "ok"))
        assert.strictEqual(approved.status, "approved")
        assert.strictEqual(approved.approval?.note, "ok")
        assert.isNotNull(approved.ledgerTransactionId)
        const again = yield* Effect.flip(SpendRequests.use((s) => s.deny(approver, pending.approval!.id, null)))
        assert.strictEqual(again._tag, "SpendRequestNotPending")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("concurrent approve, deny, cancel and expiry of one pending request: exactly one wins", () =>
      Effect.gen(function* () {
        const { team, agent, approver, key } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 1 } })
        const pending = yield* spend(agent, 3_000)
        const service = yield* SpendRequests
        const attempts: ReadonlyArray<Effect.Effect<SpendRequest, { readonly _tag: string }>> = [
          service.approve(approver, pending.approval!.id, null),
          service.deny(approver, pending.approval!.id, null),
          service.cancel(agent, pending.id),
          service.approve(approver, pending.approval!.id, null),
          service.cancel(agent, pending.id),
          service.deny(approver, pending.approval!.id, null)
        ]
        const results = yield* Effect.forEach(attempts, Effect.result, { concurrency: "unbounded" })
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 1)
        const lost = results.flatMap((r) => (r._tag === "Failure" ? [r.failure._tag] : []))
        assert.deepStrictEqual(
          lost,
          Array(5).fill("SpendRequestNotPending"),
          "every lost race is a conflict, never an outage"
        )
        const final = yield* service.get(team.id, "test", pending.id)
        assert.notStrictEqual(final.status, "pending_approval")
        const balance = (yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance
        assert.strictEqual(balance.pending, 0)
        assert.strictEqual(balance.posted, final.status === "approved" ? 7_000 : 10_000)
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
      "an approval expires after its TTL: reads show it expired, the hold is released, approving answers not pending",
      () =>
        Effect.gen(function* () {
          const { team, agent, approver, key } = yield* fundedAgent({
            funds: 10_000,
            policy: { approvalThreshold: 1, approvalTtlSeconds: 600 }
          })
          const pending = yield* spend(agent, 2_000)
          assert.strictEqual(Date.parse(pending.approval!.expiresAt) - Date.parse(pending.createdAt), 600_000)
          yield* TestClock.adjust("601 seconds")
          const read = yield* SpendRequests.use((s) => s.get(team.id, "test", pending.id))
          assert.strictEqual(read.status, "expired")
          assert.strictEqual(read.approval?.status, "expired")
          assert.strictEqual((yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance.available, 10_000)
          const late = yield* Effect.flip(SpendRequests.use((s) => s.approve(approver, pending.approval!.id, null)))
          assert.strictEqual(late._tag, "SpendRequestNotPending")
          yield* assertLedgerInvariants(team.id)
        })
    )

    it.effect("the sweeper expires due approvals and releases each hold once", () =>
      Effect.gen(function* () {
        const { team, agent, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { approvalThreshold: 1, approvalTtlSeconds: 60 }
        })
        yield* spend(agent, 1_000)
        yield* spend(agent, 2_000)
        const service = yield* SpendRequests
        yield* TestClock.adjust("61 seconds")
        const first = yield* Effect.all([service.expireDue, service.expireDue], { concurrency: "unbounded" })
        assert.isAtLeast(first[0] + first[1], 2)
        const statuses = (yield* service.list(team.id, { mode: "test" }, yield* pageRequest(undefined, 10))).map(
          (s) => s.status
        )
        assert.deepStrictEqual(statuses, ["expired", "expired"])
        assert.strictEqual((yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance.available, 10_000)
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect(
      "requests due at the same instant come due soonest expiry first, then by id; lists newest first, then by id",
      () =>
        Effect.gen(function* () {
          const { team, agent } = yield* fundedAgent({
            funds: 10_000,
            policy: { approvalThreshold: 1, approvalTtlSeconds: 60 }
          })
          const first = yield* spend(agent, 100)
          yield* TestClock.adjust("1 second")
          const sameInstant = yield* Effect.forEach(Array.from({ length: 6 }), () => spend(agent, 100))
          yield* TestClock.adjust("61 seconds")
          const due = yield* SpendRequestsRepo.use((repo) =>
            Effect.flatMap(nowIso, (now) => repo.dueForExpiry(now, 1_000))
          )
          const tied = sameInstant.map((sr) => sr.id).toSorted()
          assert.deepStrictEqual(
            due.filter((sr) => sr.teamId === team.id).map((sr) => sr.id),
            [first.id, ...tied]
          )
          const page = yield* pageRequest(undefined, 10)
          const listed = yield* SpendRequests.use((s) => s.list(team.id, { mode: "test" }, page))
          assert.deepStrictEqual(
            listed.map((sr) => sr.id),
            [...tied.toReversed(), first.id]
          )
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

    it.effect("a member who is not owner or admin cannot decide approvals", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 5_000, policy: { approvalThreshold: 1 } })
        const pending = yield* spend(agent, 100)
        const member = { ...approver, role: "member" as const }
        const error = yield* Effect.flip(SpendRequests.use((s) => s.approve(member, pending.approval!.id, null)))
        assert.strictEqual(error._tag, "ApproverNotAllowed")
      })
    )
  })

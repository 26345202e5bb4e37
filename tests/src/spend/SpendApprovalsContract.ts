import { assert, layer } from "@effect/vitest"
import {
  ApprovalChains,
  Ledger,
  nowIso,
  pageRequest,
  type SpendRequest,
  SpendRequests,
  SpendRequestsRepo,
  TeamsRepo,
  type UserId,
  UsersRepo
} from "@svc/domain"
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { domainOver, fundedAgent, type Ports, spend } from "./SpendSetup.ts"

/** How every adapter set resolves requests held for approval: approve, deny, cancel, expiry and who may decide. */
export const spendApprovalsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(domainOver(ports), { timeout: "120 seconds" })(`Spend requests (${name})`, (it) => {
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

    it.effect("a quorum's last approval racing a deny and the expiry sweep at the TTL has one winner", () =>
      Effect.gen(function* () {
        const { team, agent, approver, key } = yield* fundedAgent({
          funds: 10_000,
          policy: { approvalThreshold: 1, approvalTtlSeconds: 60 }
        })
        const admin = (role: "admin") =>
          Effect.gen(function* () {
            const userId = crypto.randomUUID() as UserId
            yield* UsersRepo.use((users) =>
              users.ensure({ id: userId, email: `${userId}@example.com`, fullName: null })
            )
            yield* TeamsRepo.use((teams) => teams.addMember(team.id, userId, role))
            return { ...approver, userId, role, credentialId: `session:${userId}` }
          })
        const [approving, denying] = [yield* admin("admin"), yield* admin("admin")]
        yield* ApprovalChains.use((c) =>
          c.set(approver, team.id, { tiers: [{ minAmount: 1, approvals: 2, roles: ["admin", "owner"] }] })
        )
        const service = yield* SpendRequests
        let approvedAmount = 0
        for (let round = 0; round < 6; round++) {
          const pending = yield* spend(agent, 1_000)
          const approvalId = pending.approval!.id
          const first = yield* service.approve(approver, approvalId, null)
          assert.strictEqual(first.status, "pending_approval", "one of two approvals leaves it pending")
          // A millisecond before the deadline: the sweep runs a millisecond later, at the deadline itself.
          yield* TestClock.adjust(59_999)
          const [approved, denied, swept] = yield* Effect.all(
            [
              Effect.result(service.approve(approving, approvalId, null)),
              Effect.result(service.deny(denying, approvalId, null)),
              Effect.andThen(TestClock.adjust(1), service.expireDue)
            ],
            { concurrency: "unbounded" }
          )
          const final = yield* service.get(team.id, "test", pending.id)
          const won = [approved, denied].filter((r) => r._tag === "Success")
          if (final.status === "expired") {
            // Expired by the sweep, or by a decision that found it past its deadline: either way once.
            assert.strictEqual(won.length, 0)
            assert.isAtMost(swept, 1)
          } else {
            assert.strictEqual(won.length, 1, `${final.status}: exactly one decision succeeded`)
            assert.strictEqual(swept, 0)
            assert.strictEqual(final.status, approved._tag === "Success" ? "approved" : "denied")
          }
          for (const r of [approved, denied]) {
            if (r._tag === "Failure") assert.strictEqual(r.failure._tag, "SpendRequestNotPending")
          }
          if (final.status === "approved") {
            approvedAmount += 1_000
            assert.strictEqual(final.approval?.approvals?.received, 2)
          }
          const balance = (yield* Ledger.use((l) => l.account(team.id, key.accountId))).balance
          assert.deepStrictEqual(balance, {
            posted: 10_000 - approvedAmount,
            pending: 0,
            available: 10_000 - approvedAmount
          })
        }
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

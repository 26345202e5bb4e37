import { assert, layer } from "@effect/vitest"
import {
  AccountId,
  AgentKeys,
  type AgentPrincipal,
  Ledger,
  LedgerRepo,
  newId,
  nowIso,
  pageRequest,
  SpendRequests,
  TeamId,
  TeamsRepo
} from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { domainOver, fundedAgent, type Ports } from "./SpendSetup.ts"

const spendIn = (agent: AgentPrincipal, amount: number, currency = "USD") =>
  SpendRequests.use((s) =>
    s.create(agent, { amount, currency, merchant: { name: "OpenAI", category: "software" }, purpose: "tokens" })
  )

/** What each spend and ledger service method fails with, as typed errors with structured fields. */
export const spendErrorsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`Spend errors (${name})`, (it) => {
    it.effect(
      "a spend account without a settlement account in its currency refuses spend with the team, mode and currency",
      () =>
        Effect.gen(function* () {
          const { team, approver } = yield* fundedAgent({ funds: 0 })
          const euros = { id: yield* newId(AccountId), teamId: team.id, mode: "test" as const, kind: "spend" as const }
          yield* LedgerRepo.use((r) =>
            Effect.flatMap(nowIso, (createdAt) =>
              r.insertAccount({ ...euros, name: "Euros", currency: "EUR", createdAt })
            )
          )
          const keys = yield* AgentKeys
          const { secret } = yield* keys.issueSpendingKey({
            teamId: team.id,
            createdBy: approver.userId,
            name: "euro agent",
            mode: "test",
            accountId: euros.id,
            policy: {}
          })
          const agent = Option.getOrThrow(yield* keys.authenticate(secret))
          const expected = { _tag: "SettlementAccountMissing", teamId: team.id, mode: "test", currency: "EUR" } as const
          assert.deepInclude(yield* Effect.flip(spendIn(agent, 100, "EUR")), expected)
          assert.deepInclude(
            yield* Effect.flip(Ledger.use((l) => l.settlementAccount(team.id, "test", "EUR"))),
            expected
          )
          const page = yield* pageRequest(undefined, 10)
          const recorded = yield* SpendRequests.use((s) => s.list(team.id, {}, page))
          assert.deepStrictEqual(recorded, [])
          const moved = yield* Ledger.use((l) => l.transactions(team.id, { accountId: euros.id }, page))
          assert.deepStrictEqual(moved, [])
        })
    )

    it.effect(
      "an amount that is not a positive integer is SpendRequestInvalid on `amount`, and one unit is accepted",
      () =>
        Effect.gen(function* () {
          const { agent } = yield* fundedAgent({ funds: 1_000 })
          for (const amount of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
            const error = yield* Effect.flip(spendIn(agent, amount))
            assert.deepInclude(error, { _tag: "SpendRequestInvalid", field: "amount" }, String(amount))
          }
          assert.strictEqual((yield* spendIn(agent, 1)).status, "approved")
        })
    )

    it.effect("deciding an approval the approver's team does not hold fails with ApprovalNotFound naming it", () =>
      Effect.gen(function* () {
        const a = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 1 } })
        const b = yield* fundedAgent({ funds: 0 })
        const pending = yield* spendIn(a.agent, 500)
        const approvalId = pending.approval!.id
        const service = yield* SpendRequests
        for (const approver of [b.approver, { ...a.approver, teamId: null }]) {
          assert.deepInclude(yield* Effect.flip(service.approve(approver, approvalId, null)), {
            _tag: "ApprovalNotFound",
            approvalId
          })
        }
        const unknown = crypto.randomUUID()
        assert.deepInclude(yield* Effect.flip(service.deny(a.approver, unknown, null)), {
          _tag: "ApprovalNotFound",
          approvalId: unknown
        })
        assert.strictEqual((yield* service.get(a.team.id, "test", pending.id)).status, "pending_approval")
      })
    )

    it.effect("a transition after another one won reports the status the request now has", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 1 } })
        const service = yield* SpendRequests
        const denied = yield* spendIn(agent, 500)
        yield* service.deny(approver, denied.approval!.id, null)
        assert.deepInclude(yield* Effect.flip(service.approve(approver, denied.approval!.id, null)), {
          _tag: "SpendRequestNotPending",
          id: denied.id,
          status: "denied"
        })
        const approved = yield* spendIn(agent, 500)
        yield* service.approve(approver, approved.approval!.id, null)
        assert.deepInclude(yield* Effect.flip(service.cancel(agent, approved.id)), {
          _tag: "SpendRequestNotPending",
          id: approved.id,
          status: "approved"
        })
      })
    )

    it.effect(
      "a team without a spend account in a mode: its credential's account is NoSpendAccount, a named one AccountNotFound",
      () =>
        Effect.gen(function* () {
          const teamId = yield* newId(TeamId)
          yield* TeamsRepo.use((r) =>
            Effect.flatMap(nowIso, (createdAt) =>
              r.insert({ id: teamId, name: "Bare", baseCurrency: "USD", createdAt })
            )
          )
          const ledger = yield* Ledger
          assert.deepInclude(yield* Effect.flip(ledger.spendAccount(teamId, "live", null)), {
            _tag: "NoSpendAccount",
            teamId,
            mode: "live"
          })
          const named = yield* newId(AccountId)
          assert.deepInclude(yield* Effect.flip(ledger.spendAccount(teamId, "live", named)), {
            _tag: "AccountNotFound",
            accountId: named
          })
        })
    )
  })

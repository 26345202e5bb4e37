import { assert, layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { Ledger, type SpendRequest, SpendRequests } from "@svc/domain"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { domainOver, fundedAgent } from "./SpendSetup.ts"

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const Pick = int(0, 30)

const Operation = Schema.Union([
  Schema.TaggedStruct("create", { amount: int(1, 12) }),
  Schema.TaggedStruct("decide", { decision: Schema.Literals(["approve", "deny", "cancel"]), pick: Pick }),
  Schema.TaggedStruct("expire", {})
])

const Scenario = {
  funds: int(0, 80),
  daily: int(0, 40),
  monthly: int(0, 40),
  threshold: int(0, 13),
  operations: Schema.Array(Operation).check(Schema.isMaxLength(40))
}

const TTL_SECONDS = 60

layer(domainOver(PortsMemory), { timeout: "60 seconds" })("Spend requests under random sequences (in-memory)", (it) => {
  it.effect.prop(
    "approved and pending spend never exceed the budgets or the funds, and each decision is the one the budgets allow",
    Scenario,
    ({ funds, daily, monthly, threshold, operations }) =>
      Effect.gen(function* () {
        const { team, key, agent, approver } = yield* fundedAgent({
          funds,
          policy: {
            dailyBudget: daily,
            monthlyBudget: monthly,
            approvalTtlSeconds: TTL_SECONDS,
            approvalThreshold: threshold
          }
        })
        const service = yield* SpendRequests
        const ledger = yield* Ledger
        const requests: Array<{ sr: SpendRequest; status: SpendRequest["status"] }> = []
        const total = (status: SpendRequest["status"]) =>
          requests.filter((r) => r.status === status).reduce((s, r) => s + r.sr.amount, 0)
        const withApproval = () => requests.filter((r) => r.sr.approval !== null)
        for (const [step, op] of operations.entries()) {
          const label = `step ${step}: ${JSON.stringify(op)}`
          if (op._tag === "create") {
            const used = total("approved") + total("pending_approval")
            const fits = used + op.amount <= daily && used + op.amount <= monthly && op.amount <= funds - used
            const expected = !fits ? "denied" : op.amount >= threshold ? "pending_approval" : "approved"
            const sr = yield* service.create(agent, {
              amount: op.amount,
              currency: "USD",
              merchant: { name: "OpenAI", category: "software" },
              purpose: "tokens"
            })
            assert.strictEqual(sr.status, expected, label)
            requests.push({ sr, status: sr.status })
          } else if (op._tag === "expire") {
            yield* TestClock.adjust(`${TTL_SECONDS + 1} seconds`)
            yield* service.expireDue
            for (const r of requests) if (r.status === "pending_approval") r.status = "expired"
          } else {
            const candidates = withApproval()
            if (candidates.length === 0) continue
            const target = candidates[op.pick % candidates.length]!
            const decided: Effect.Effect<SpendRequest, { readonly _tag: string }> =
              op.decision === "approve"
                ? service.approve(approver, target.sr.approval!.id, null)
                : op.decision === "deny"
                  ? service.deny(approver, target.sr.approval!.id, null)
                  : service.cancel(agent, target.sr.id)
            const result = yield* Effect.result(decided)
            if (target.status !== "pending_approval") {
              assert.strictEqual(result._tag === "Failure" && result.failure._tag, "SpendRequestNotPending", label)
              continue
            }
            assert.strictEqual(result._tag, "Success", label)
            target.status = op.decision === "approve" ? "approved" : op.decision === "deny" ? "denied" : "canceled"
          }
          const spent = total("approved")
          const held = total("pending_approval")
          assert.isAtMost(spent + held, Math.min(daily, monthly, funds), label)
          const { balance } = yield* ledger.account(team.id, key.accountId)
          assert.deepStrictEqual(
            balance,
            { posted: funds - spent, pending: held, available: funds - spent - held },
            label
          )
        }
        yield* assertLedgerInvariants(team.id)
      }),
    { timeout: 60_000, arbitrary: { runs: 50, size: 40 } }
  )
})

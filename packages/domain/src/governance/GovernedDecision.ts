import { Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { type Approval, ApprovalId, approvalTierOf } from "../approvals/index.ts"
import { balanceOf, movementPosting, planTransaction, SettlementAccountMissing } from "../ledger/index.ts"
import { isoOfMillis, LedgerTransactionId, newId } from "../shared/index.ts"
import {
  approvalExpiresAt,
  effectivePolicy,
  evaluateSpend,
  frozenBy,
  normalizeCategory,
  type SpendDecision,
  SpendRequestInvalid,
  type UsageWindows
} from "../spend/model.ts"
import type { DecisionInputs, GovernedAsk, GovernedDecision, GovernedSubject } from "./GovernedAsk.ts"

/**
 * Decides an ask on the state `GovernedBudgets.lockForDecisions` read under its locks at `now` for the budget
 * `windows` of that moment and the ask's category: the policy decision (the agent's policy over the team's defaults),
 * the posting or hold, the approval, the budget usage and request count. Refused when the credential has no such spend account, the currency differs from
 * the account's, or the team has no settlement account in that currency.
 */
export const decideGoverned = Effect.fn("Governed.decide")(function* (
  agent: AgentPrincipal,
  ask: GovernedAsk,
  subject: GovernedSubject,
  inputs: DecisionInputs,
  now: number,
  windows: UsageWindows
) {
  if (Option.isNone(inputs.spendAccount)) {
    return yield* new SpendRequestInvalid({
      field: "accountId",
      message: `no ${agent.mode} spend account ${ask.accountId ?? ""}`.trim()
    })
  }
  const spend = inputs.spendAccount.value
  const account = spend.account
  if (account.currency !== ask.currency) {
    return yield* new SpendRequestInvalid({
      field: "currency",
      message: `the account holds ${account.currency}, not ${ask.currency}`
    })
  }
  if (Option.isNone(inputs.settlementAccount)) {
    return yield* new SettlementAccountMissing({ teamId: agent.teamId, mode: agent.mode, currency: account.currency })
  }
  const settlement = inputs.settlementAccount.value
  const policy = effectivePolicy(agent.policy ?? {}, inputs.teamPolicy)
  if (windows.category !== normalizeCategory(ask.merchant.category)) {
    return yield* Effect.die(new Error("the ask was locked under another category than its own"))
  }
  const evaluated = evaluateSpend({
    policy,
    amount: ask.amount,
    merchant: ask.merchant,
    now,
    spent: inputs.spent,
    categorySpent: inputs.categorySpent,
    recentRequests: inputs.recentRequests,
    requestsToday: inputs.requestsToday,
    available: balanceOf(spend.counters).available,
    frozen: frozenBy(inputs.governance.freezes, agent.keyId),
    approvalTiers: inputs.governance.approvalTiers,
    merchantKnown: inputs.merchantKnown
  })
  const decision: SpendDecision = {
    ...evaluated,
    policyVersions: { spendingKey: agent.policyVersion ?? null, team: inputs.teamPolicyVersion ?? null }
  }
  const createdAt = isoOfMillis(now)
  const posting = movementPosting(
    {
      teamId: agent.teamId,
      mode: agent.mode,
      code: subject.type,
      reference: subject.id,
      debitAccountId: account.id,
      creditAccountId: settlement.account.id,
      amount: ask.amount
    },
    decision.outcome === "pending_approval" || subject.whenApproved === "hold"
  )
  const ledgerTransaction =
    decision.outcome === "denied" || subject.whenApproved === "none"
      ? null
      : yield* Effect.fromResult(
          planTransaction({ ...posting.base, id: yield* newId(LedgerTransactionId), createdAt }, posting.entries, {
            locked: [spend, settlement],
            checkFunds: true
          })
        ).pipe(
          // Two locked accounts of the team, mode and one currency, a positive amount, and the policy denied
          // any amount over the locked available balance: the plan cannot be refused.
          Effect.orDie
        )
  const tier = approvalTierOf(inputs.governance.approvalTiers, ask.amount)
  const approval: Approval | null =
    decision.outcome === "pending_approval"
      ? {
          id: yield* newId(ApprovalId),
          teamId: agent.teamId,
          mode: agent.mode,
          subjectType: subject.type,
          subjectId: subject.id,
          status: "pending",
          expiresAt: isoOfMillis(approvalExpiresAt(now, policy)),
          decidedAt: null,
          decidedBy: null,
          note: null,
          createdAt,
          updatedAt: createdAt,
          approvers: tier.approvers,
          spendingKeyId: agent.keyId,
          separateFrom: tier.index >= 1 ? inputs.governance.keyCreatedBy : null,
          decisions: []
        }
      : null
  const decided: GovernedDecision = {
    decision,
    account,
    ledgerTransaction,
    approval,
    usage: { windows, amount: decision.outcome === "denied" ? 0 : ask.amount, at: now }
  }
  return decided
})

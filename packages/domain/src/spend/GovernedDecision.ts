import { Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/index.ts"
import { type Approval, ApprovalId, type ApprovalSubjectType } from "../approvals/index.ts"
import {
  type Account,
  balanceOf,
  type LedgerTransaction,
  movementPosting,
  planTransaction,
  SettlementAccountMissing
} from "../ledger/index.ts"
import { type AccountId, isoOfMillis, LedgerTransactionId, newId } from "../shared/index.ts"
import { approvalExpiresAt, effectivePolicy, evaluateSpend, type SpendDecision } from "./SpendPolicy.ts"
import { SpendRequestInvalid, type UsageWindows } from "./SpendRequest.ts"
import type { DecisionInputs } from "./SpendRequestsRepo.ts"

/**
 * What an agent asks to move out of its team, as its policy and the ledger see it: a spend request, a book transfer, a
 * checkout intent.
 * Every such ask is governed alike: the same policy, the same budgets, the same holds and approvals.
 */
export interface GovernedAsk {
  readonly amount: number
  readonly currency: string
  /** What the policy's merchant and category rules match. */
  readonly merchant: { readonly name: string; readonly category?: string | undefined }
  /** The spend account asked for; null for the credential's own, or the mode's first. */
  readonly accountId: AccountId | null
}

/** What the ask is: approvals name it, and its ledger transactions carry its kind as code and its id as reference. */
export interface GovernedSubject {
  readonly type: ApprovalSubjectType
  readonly id: string
  /**
   * What an approved ask moves at once: `post` (a spend request is paid now), `hold` (a transfer waits for its
   * recipient), or `none` (a checkout intent is funded later, by its card's authorization). An ask routed to approval
   * is held, except with `none`, which moves nothing either way.
   */
  readonly whenApproved: "post" | "hold" | "none"
}

/** The decision on an ask, and what it writes. */
export interface GovernedDecision {
  readonly decision: SpendDecision
  /** The spend account the ask draws on. */
  readonly account: Account
  /** The posting or hold; null when denied, and when the ask moves no money (`whenApproved: "none"`). */
  readonly ledgerTransaction: LedgerTransaction | null
  /** The approval an ask routed to a human waits on; null otherwise. */
  readonly approval: Approval | null
  /** What the ask adds to its credential's budget totals (0 when denied). */
  readonly usage: { readonly windows: UsageWindows; readonly amount: number }
}

/**
 * Decides an ask on the state `SpendRequestsRepo.lockForDecisions` read under its locks at `now` for the budget
 * `windows` of that moment: the policy decision (the agent's policy over the team's defaults), the posting or hold,
 * the approval, the budget usage. Refused when the credential has no such spend account, the currency differs from
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
  const decision = evaluateSpend({
    policy,
    amount: ask.amount,
    merchant: ask.merchant,
    spentToday: inputs.spentToday,
    spentThisMonth: inputs.spentThisMonth,
    available: balanceOf(spend.counters).available,
    now,
    merchantKnown: inputs.merchantKnown
  })
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
          updatedAt: createdAt
        }
      : null
  const decided: GovernedDecision = {
    decision,
    account,
    ledgerTransaction,
    approval,
    usage: { windows, amount: decision.outcome === "denied" ? 0 : ask.amount }
  }
  return decided
})

import type { Array as Arr, Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import type { Approval, ApprovalSubjectType, ApprovalTier } from "../approvals/model.ts"
import type { Account, LedgerTransaction, LockedAccount } from "../ledger/model.ts"
import type { AccountId, Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import {
  type RequestUsage,
  type SpendDecision,
  type SpendFreeze,
  type SpendPolicy,
  type UsageTotals,
  type UsageWindows,
  usageWindows
} from "../spend/model.ts"

/**
 * What an agent asks to move out of its team, as its policy and the ledger see it: a spend request, a book transfer, a
 * checkout intent, a crypto payout.
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
  /** What the ask adds to its credential's budget totals and request counts (nothing when denied). */
  readonly usage: RequestUsage
}

/** The locked state a spend decision reads (see `GovernedBudgets.lockForDecisions`). */
export interface DecisionInputs {
  /** None when the team has no such spend account in this mode. */
  readonly spendAccount: Option.Option<LockedAccount>
  /** The settlement account in the spend account's currency. */
  readonly settlementAccount: Option.Option<LockedAccount>
  /** The team's default policy ({} when none is set). */
  readonly teamPolicy: SpendPolicy
  /** The version of `teamPolicy`, read with it; null (or absent) when the team never set one. */
  readonly teamPolicyVersion?: number | null | undefined
  /** The credential's approved and pending spend in each interval of the lock's windows. */
  readonly spent: UsageTotals
  /** The same totals of the lock's category alone (all 0 without a category). */
  readonly categorySpent: UsageTotals
  /**
   * When the credential's counted requests of the hour before the lock's moment were made (epoch millis, most recent
   * first): the most recent `maxRequestsPerHour` of the effective policy, none without that limit.
   */
  readonly recentRequests: ReadonlyArray<number>
  /** The credential's counted requests in the UTC day of the lock's windows, counted up to `maxRequestsPerDay`. */
  readonly requestsToday: number
  /** Whether the team has paid the lock's `merchant` before, in this mode. */
  readonly merchantKnown: boolean
  /** The kill switch and the approval chain the decision reads (see `DecisionGovernance`). */
  readonly governance: DecisionGovernance
}

/** What a decision reads of the team's governance: its active freezes, its approval chain, the key's creator. */
export interface DecisionGovernance {
  /** The team's active freezes (the team's own and its keys'). */
  readonly freezes: ReadonlyArray<SpendFreeze>
  /** The team's approval tiers, in increasing `minAmount` ([] when none are set). */
  readonly approvalTiers: ReadonlyArray<ApprovalTier>
  /** The member who created the request's credential; null when unknown. */
  readonly keyCreatedBy: string | null
}

/** What one request of a batch locks: its spend account (or the mode's first) and its credential's budget totals. */
export interface DecisionLock {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly accountId: AccountId | null
  readonly spendingKeyId: string
  /** The budget windows and category the request is decided in. */
  readonly windows: UsageWindows
  /** When the request is decided (epoch millis): the rolling hour of `maxRequestsPerHour` ends then. */
  readonly at: number
  /**
   * The credential's own velocity limits (`maxRequestsPerHour`, `maxRequestsPerDay`; where absent, the team's
   * apply): the recent requests are read up to the effective limit, so a decision reads a bounded number of them.
   */
  readonly requestLimits: Pick<SpendPolicy, "maxRequestsPerHour" | "maxRequestsPerDay">
  /** The merchant's normalised name (`normalizeMerchantName`), when it matters: whether the team knows it is read. */
  readonly merchant?: string | undefined
}

/**
 * What an ask of `agent` on the spend account `accountId` (null: the mode's first) in `category`, decided at `now`,
 * locks: its account and its credential's totals in the windows of that moment, and, given its merchant's normalised
 * name, whether its team has paid that merchant before.
 */
export const decisionLock = (
  agent: AgentPrincipal,
  accountId: AccountId | null,
  now: number,
  category: string | null | undefined,
  merchant?: string | undefined
): DecisionLock => ({
  teamId: agent.teamId,
  mode: agent.mode,
  accountId,
  spendingKeyId: agent.keyId,
  windows: usageWindows(now, category),
  at: now,
  requestLimits: agent.policy ?? {},
  merchant
})

/** A merchant a team has paid, by normalised name (`normalizeMerchantName`), in one mode. */
export interface KnownMerchant {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly merchant: string
  /** When the payment that made it known was posted. */
  readonly at: string
}

/** The budgets every governed ask is decided under and counted in: the part of `SpendRequestsRepo` the kernel uses. */
export interface GovernedBudgets {
  /**
   * Reads what new requests are decided on and locks it until the transaction ends: first, in id order, every spend
   * account (a lock's `accountId`, or the mode's first spend account when null) with the settlement account of its
   * currency, then the credentials' budget totals in every total of each lock's windows (the credential's and its
   * category's), in (credential, category, period, start) order. Decisions of other transactions on the same accounts
   * or credentials therefore queue, and each sees the balances and totals the previous one left. `inputs[i]` is the
   * state of `locks[i]` as read, before any request of the batch moved it.
   */
  readonly lockForDecisions: (
    locks: Arr.NonEmptyReadonlyArray<DecisionLock>
  ) => Effect.Effect<ReadonlyArray<DecisionInputs>, PersistenceUnavailable>
  /**
   * Counts what a governed ask other than a spend request (a transfer, a checkout intent, a payout) adds, under the
   * totals `lockForDecisions` locked: its amount in every total of its windows and, unless it was denied (amount 0),
   * one request at `at` for the velocity limits.
   */
  readonly recordUsage: (spendingKeyId: string, usage: RequestUsage) => Effect.Effect<void, PersistenceUnavailable>
  /**
   * Moves a credential's running totals in every total of `windows` by `delta`: negative, what a released hold gives
   * back in the windows it was counted in, or the difference a clearing makes. Request counts do not move.
   */
  readonly moveUsage: (
    spendingKeyId: string,
    windows: UsageWindows,
    delta: number
  ) => Effect.Effect<void, PersistenceUnavailable>
  /** Records merchants as known to their teams; a merchant already known keeps when it was first paid. */
  readonly rememberMerchants: (merchants: ReadonlyArray<KnownMerchant>) => Effect.Effect<void, PersistenceUnavailable>
}

/** The freezes an approval waits on: the part of `SpendFreezesRepo` the kernel reads. */
export interface GovernedFreezes {
  /** The team's active freezes, the team's own first, then by key. */
  readonly active: (teamId: TeamId) => Effect.Effect<ReadonlyArray<SpendFreeze>, PersistenceUnavailable>
}

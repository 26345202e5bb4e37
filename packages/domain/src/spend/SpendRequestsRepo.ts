import { type Array as Arr, Context, type Effect, type Option } from "effect"
import type { Approval, ApprovalTier } from "../approvals/model.ts"
import type { LedgerTransaction, LockedAccount } from "../ledger/model.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { AccountId, Mode, PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { SpendFreeze } from "./SpendFreeze.ts"
import type { SpendPolicy, UsageTotals } from "./SpendPolicy.ts"
import type {
  RequestUsage,
  SpendRequest,
  SpendRequestId,
  SpendRequestQuery,
  Transition,
  UsageWindows
} from "./SpendRequest.ts"

/** The locked state a spend decision reads (see `SpendRequestsRepo.lockForDecision`). */
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

/** Everything a decided request writes, in one unit. */
export interface DecidedSpend {
  readonly request: SpendRequest
  /** The approval a request pending approval waits on; null otherwise. */
  readonly approval: Approval | null
  /** The posting (approved) or hold (pending approval); null when denied. */
  readonly ledgerTransaction: LedgerTransaction | null
  /** What the request adds to its credential's budget totals and request counts (nothing when denied). */
  readonly usage: RequestUsage
  readonly events: ReadonlyArray<DomainEvent>
  /** The merchant (normalised name) the request paid at once, which its team now knows; null when it paid nothing. */
  readonly knownMerchant: string | null
}

/** A merchant a team has paid, by normalised name (`normalizeMerchantName`), in one mode. */
export interface KnownMerchant {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly merchant: string
  /** When the payment that made it known was posted. */
  readonly at: string
}

/** Storage of spend requests. */
export class SpendRequestsRepo extends Context.Service<
  SpendRequestsRepo,
  {
    readonly find: (
      teamId: TeamId,
      id: SpendRequestId
    ) => Effect.Effect<Option.Option<SpendRequest>, PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      query: SpendRequestQuery,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<SpendRequest>, PersistenceUnavailable>
    /**
     * Reads what new requests are decided on and locks it until the transaction ends: first, in id order, every spend
     * account (a lock's `accountId`, or the mode's first spend account when null) with the settlement account of its
     * currency, then the credentials' budget totals in every total of each lock's windows (the credential's and its category's), in
     * (credential, category, period, start) order. Decisions of other
     * transactions on the same accounts or credentials therefore queue, and each sees the balances and totals the
     * previous one left. `inputs[i]` is the state of `locks[i]` as read, before any request of the batch moved it.
     */
    readonly lockForDecisions: (
      locks: Arr.NonEmptyReadonlyArray<DecisionLock>
    ) => Effect.Effect<ReadonlyArray<DecisionInputs>, PersistenceUnavailable>
    /**
     * What `lockForDecisions` would read for `lock`, read without locking or writing anything: what a dry run decides
     * on. Another transaction may change it right after.
     */
    readonly readForDecision: (lock: DecisionLock) => Effect.Effect<DecisionInputs, PersistenceUnavailable>
    /** Stores decided requests with their approvals, ledger transactions, budget usage and events, in one write. */
    readonly insertDecided: (
      decided: Arr.NonEmptyReadonlyArray<DecidedSpend>
    ) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Counts what a governed ask other than a spend request (a transfer, a checkout intent) adds, under the totals
     * `lockForDecisions` locked: its amount in every total of its windows and, unless it was denied (amount 0), one
     * request at `at` for the velocity limits.
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
    /** Applies a transition only if the request is still pending; none when another transition won. */
    readonly transition: (
      teamId: TeamId,
      id: SpendRequestId,
      transition: Transition
    ) => Effect.Effect<Option.Option<SpendRequest>, PersistenceUnavailable>
    /** Pending requests whose approval expired at or before `now`, soonest expiry first, then by id. */
    readonly dueForExpiry: (
      now: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SpendRequest>, PersistenceUnavailable>
  }
>()("@svc/domain/SpendRequestsRepo") {}

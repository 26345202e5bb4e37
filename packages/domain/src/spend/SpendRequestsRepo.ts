import { type Array as Arr, Context, type Effect, type Option } from "effect"
import type { Approval } from "../approvals/index.ts"
import type { LedgerTransaction, LockedAccount } from "../ledger/index.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { AccountId, Mode, PageRequest, PersistenceUnavailable, TeamId } from "../shared/index.ts"
import type { SpendPolicy } from "./SpendPolicy.ts"
import type { SpendRequest, SpendRequestId, SpendRequestQuery, Transition, UsageWindows } from "./SpendRequest.ts"

/** The locked state a spend decision reads (see `SpendRequestsRepo.lockForDecision`). */
export interface DecisionInputs {
  /** None when the team has no such spend account in this mode. */
  readonly spendAccount: Option.Option<LockedAccount>
  /** The settlement account in the spend account's currency. */
  readonly settlementAccount: Option.Option<LockedAccount>
  /** The team's default policy ({} when none is set). */
  readonly teamPolicy: SpendPolicy
  readonly spentToday: number
  readonly spentThisMonth: number
  /** Whether the team has paid the lock's `merchant` before, in this mode. */
  readonly merchantKnown: boolean
}

/** What one request of a batch locks: its spend account (or the mode's first) and its credential's budget totals. */
export interface DecisionLock {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly accountId: AccountId | null
  readonly spendingKeyId: string
  /** The budget windows the request is decided in. */
  readonly windows: UsageWindows
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
  /** What the request adds to its credential's budget totals (0 when denied). */
  readonly usage: { readonly windows: UsageWindows; readonly amount: number }
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
     * currency, then the credentials' budget totals in both of each lock's windows, in credential order. Decisions of other
     * transactions on the same accounts or credentials therefore queue, and each sees the balances and totals the
     * previous one left. `inputs[i]` is the state of `locks[i]` as read, before any request of the batch moved it.
     */
    readonly lockForDecisions: (
      locks: Arr.NonEmptyReadonlyArray<DecisionLock>
    ) => Effect.Effect<ReadonlyArray<DecisionInputs>, PersistenceUnavailable>
    /** Stores decided requests with their approvals, ledger transactions, budget usage and events, in one write. */
    readonly insertDecided: (
      decided: Arr.NonEmptyReadonlyArray<DecidedSpend>
    ) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Moves a credential's running totals in both `windows` by `delta`: what a governed request counts (a transfer,
     * under the totals `lockForDecisions` locked) or, negative, what a released hold gives back in the windows it was
     * counted in.
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

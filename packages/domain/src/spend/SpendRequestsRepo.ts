import { type Array as Arr, Context, type Effect, type Option } from "effect"
import type { Approval } from "../approvals/model.ts"
import type { DecisionInputs, DecisionLock, GovernedBudgets } from "../governance/model.ts"
import type { LedgerTransaction } from "../ledger/model.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { RequestUsage, SpendRequest, SpendRequestId, SpendRequestQuery, Transition } from "./SpendRequest.ts"

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

/** Storage of spend requests, and the budgets every governed ask is decided under (`GovernedBudgets`). */
export class SpendRequestsRepo extends Context.Service<
  SpendRequestsRepo,
  GovernedBudgets & {
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
     * What `lockForDecisions` would read for `lock`, read without locking or writing anything: what a dry run decides
     * on. Another transaction may change it right after.
     */
    readonly readForDecision: (lock: DecisionLock) => Effect.Effect<DecisionInputs, PersistenceUnavailable>
    /** Stores decided requests with their approvals, ledger transactions, budget usage and events, in one write. */
    readonly insertDecided: (
      decided: Arr.NonEmptyReadonlyArray<DecidedSpend>
    ) => Effect.Effect<void, PersistenceUnavailable>
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

import type { Effect, Option } from "effect"
import type { ApprovalStatus, ApprovalView } from "../approvals/model.ts"
import type { Mode, PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"

/**
 * What every governed subject (a checkout intent, a book transfer, a crypto payout) carries: its id and status, the
 * credential that asked and the amount counted in its budgets, the approval a human decides, when it was made.
 */
export interface GovernedRow {
  readonly id: string
  readonly mode: Mode
  readonly status: string
  readonly amount: number
  readonly spendingKeyId: string
  readonly approval: ApprovalView | null
  readonly createdAt: string
}

/**
 * The storage every governed subject's repository offers, `S` stored and changed by `Transition`, listed by `Query`:
 * a subject is inserted with its approval already stored, moves only from a status it is still in, and a final status
 * never changes. Each subject's port adds what is its own (a lock, a submission).
 */
export interface GovernedRepo<S extends GovernedRow, Transition, Query> {
  /** Stores a new subject (its approval, if any, already stored). */
  readonly insert: (subject: S) => Effect.Effect<void, PersistenceUnavailable>
  readonly find: (id: S["id"]) => Effect.Effect<Option.Option<S>, PersistenceUnavailable>
  /** The team's subjects, newest first, by cursor. */
  readonly list: (
    teamId: TeamId,
    query: Query,
    page: PageRequest
  ) => Effect.Effect<ReadonlyArray<S>, PersistenceUnavailable>
  /** Applies a transition only if the subject's status is still one of `from`; none when another one won. */
  readonly transition: (
    id: S["id"],
    from: ReadonlyArray<S["status"]>,
    transition: Transition
  ) => Effect.Effect<Option.Option<S>, PersistenceUnavailable>
  /** The subjects due to expire at `now` (the subject's port says which), soonest first, then by id. */
  readonly dueForExpiry: (now: string, limit: number) => Effect.Effect<ReadonlyArray<S>, PersistenceUnavailable>
}

/** Which governed subjects of `Status` a team lists. */
export interface GovernedQuery<Status extends string> {
  /** Both modes when absent (the treasury's approvals). */
  readonly mode?: Mode | undefined
  readonly status?: Status | undefined
  readonly approvalStatus?: ApprovalStatus | undefined
  /** Only subjects the policy routed to a human. */
  readonly withApproval?: boolean | undefined
  /** Only those made with this credential. */
  readonly spendingKeyId?: string | undefined
  /** Only those created at or after this moment (ISO 8601). */
  readonly createdFrom?: string | undefined
  /** Only those created strictly before this moment (ISO 8601). */
  readonly createdBefore?: string | undefined
}

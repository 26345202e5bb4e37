import { Data, Effect, Option } from "effect"
import { nowIso, type PersistenceUnavailable, type TeamId } from "../shared/index.ts"
import { ApprovalId, type ApprovalStatus } from "./Approval.ts"
import type { ApprovalsRepo } from "./ApprovalsRepo.ts"

/**
 * Another transition decided the subject of an approval first (a spend request, a transfer, an intent); the caller
 * reports the status the subject now has.
 */
export class DecidedMeanwhile extends Data.TaggedError("DecidedMeanwhile")<{}> {}

const isDecidedMeanwhile = (e: unknown): e is DecidedMeanwhile => e instanceof DecidedMeanwhile

/** How a subject's pending approval ends, but for the time, which is taken when it is decided. */
export interface SubjectApprovalDecision {
  readonly status: Exclude<ApprovalStatus, "pending">
  readonly decidedBy: string | null
  readonly note: string | null
}

/**
 * Decides the pending approval of a subject of `teamId` first (ADR 0010); fails with `DecidedMeanwhile` when the
 * subject has none or another transition decided it meanwhile.
 */
export const decidePendingApproval = (
  approvals: ApprovalsRepo["Service"],
  teamId: TeamId,
  approval: { readonly id: string } | null,
  decision: SubjectApprovalDecision
): Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable> =>
  Effect.gen(function* () {
    if (approval === null) return yield* new DecidedMeanwhile()
    const decided = yield* approvals.decide(teamId, ApprovalId.make(approval.id), {
      ...decision,
      decidedAt: yield* nowIso
    })
    if (Option.isNone(decided)) return yield* new DecidedMeanwhile()
  })

/**
 * Runs a transition of a subject and, when another transition won (`DecidedMeanwhile`), fails with what `notPending`
 * makes of the subject and the status it has now, as `stored` reads it.
 */
export const meanwhileReporter =
  <S extends { readonly status: string }, E2, R2, N>(
    stored: (subject: S) => Effect.Effect<S, E2, R2>,
    notPending: (subject: S, status: S["status"]) => N
  ) =>
  <A, E, R>(
    subject: S,
    self: Effect.Effect<A, E | DecidedMeanwhile, R>
  ): Effect.Effect<A, Exclude<E, DecidedMeanwhile> | E2 | N, R | R2> =>
    Effect.catchIf(
      self,
      isDecidedMeanwhile,
      () => Effect.flatMap(stored(subject), (now) => Effect.fail(notPending(subject, now.status))),
      Effect.fail
    )

/**
 * Expires the subjects `dueForExpiry` answers as of now, at most 100 a call, in turn; returns how many it expired,
 * one that another transition decided meanwhile not counted.
 */
export const expireDueSubjects = <S, R>(
  dueForExpiry: (now: string, limit: number) => Effect.Effect<ReadonlyArray<S>, PersistenceUnavailable>,
  expire: (subject: S) => Effect.Effect<unknown, DecidedMeanwhile | PersistenceUnavailable, R>
): Effect.Effect<number, PersistenceUnavailable, R> =>
  Effect.flatMap(nowIso, (now) => dueForExpiry(now, 100)).pipe(
    Effect.flatMap((due) =>
      Effect.reduce(
        due,
        () => 0,
        (expired, subject) =>
          expire(subject).pipe(
            Effect.as(expired + 1),
            Effect.catchTag("DecidedMeanwhile", () => Effect.succeed(expired))
          )
      )
    )
  )

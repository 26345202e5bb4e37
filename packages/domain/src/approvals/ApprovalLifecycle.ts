import { Data, Effect, Option, Schema } from "effect"
import type { Role } from "../identity/model.ts"
import { domainEvents, type EventOutbox } from "../platform/index.ts"
import { nowIso, type PersistenceUnavailable, type TeamId } from "../shared/index.ts"
import { type Approval, ApprovalId, type ApprovalStatus, approvalView } from "./Approval.ts"
import { type ApprovalStep, stepOutcome } from "./ApprovalChain.ts"
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

/** A member's step was refused: not eligible, already decided, or it would fill the quorum without whom it needs. */
export class ApprovalStepRefused extends Schema.TaggedError<ApprovalStepRefused>()("ApprovalStepRefused", {
  reason: Schema.Literals(["not_eligible", "already_decided", "owner_required", "separation_of_duties"]),
  message: Schema.String
}) {}

/** What a recorded step did: denied the approval, counted towards its quorum, or reached it. */
export interface RecordedStep {
  readonly outcome: "denied" | "recorded" | "quorum_reached"
  /** The approval with the step. */
  readonly approval: Approval
}

/**
 * Records a member's step on a pending approval, in the caller's transaction, under the approval's lock (`stepOutcome`
 * decides): the caller then ends the approval when the step denied it or reached its quorum. Publishes
 * `approval.step_recorded`, and `approval.quorum_reached` with the step that reached it. Fails with `DecidedMeanwhile`
 * when the approval is no longer pending.
 */
export const recordApprovalStep = (
  approvals: ApprovalsRepo["Service"],
  outbox: EventOutbox["Service"],
  approval: Pick<Approval, "id" | "teamId">,
  approver: { readonly userId: string; readonly role: Role | null },
  decision: "approved" | "denied",
  note: string | null
): Effect.Effect<RecordedStep, DecidedMeanwhile | ApprovalStepRefused | PersistenceUnavailable> =>
  Effect.gen(function* () {
    const locked = yield* approvals.lockPending(approval.teamId, ApprovalId.make(approval.id))
    if (Option.isNone(locked)) return yield* new DecidedMeanwhile()
    const current = locked.value
    const outcome =
      approver.role === null
        ? ({ _tag: "refused", reason: "not_eligible", message: "only team members decide approvals" } as const)
        : stepOutcome(current, { userId: approver.userId, role: approver.role, decision })
    if (outcome._tag === "refused") {
      return yield* new ApprovalStepRefused({ reason: outcome.reason, message: outcome.message })
    }
    const decidedAt = yield* nowIso
    const step: ApprovalStep = { userId: approver.userId, role: approver.role ?? "member", decision, note, decidedAt }
    yield* approvals.insertStep(current.teamId, current.id, step)
    const after: Approval = { ...current, decisions: [...current.decisions, step] }
    const types =
      outcome._tag === "quorum_reached"
        ? ["approval.step_recorded", "approval.quorum_reached"]
        : ["approval.step_recorded"]
    const data = {
      ...approvalView(after, null),
      object: "approval",
      subjectType: after.subjectType,
      subjectId: after.subjectId,
      step
    }
    const events = yield* domainEvents({ teamId: after.teamId, mode: after.mode, data, createdAt: decidedAt }, types)
    yield* outbox.publish(...events)
    return { outcome: outcome._tag, approval: after }
  })

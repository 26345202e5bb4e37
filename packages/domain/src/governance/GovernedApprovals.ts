import { Clock, Effect, Option } from "effect"
import type { TeamPrincipal } from "../access/model.ts"
import {
  type Approval,
  ApprovalNotFound,
  type ApprovalStepRefused,
  type ApprovalSubjectType,
  type ApprovalsRepo,
  DecidedMeanwhile,
  decidableApproval,
  meanwhileReporter,
  recordApprovalStep,
  type SubjectApprovalDecision
} from "../approvals/index.ts"
import type { Ledger } from "../ledger/index.ts"
import type { EventOutbox } from "../platform/index.ts"
import type { Transactor } from "../shared/index.ts"
import type { LedgerTransactionId, Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import { SpendingFrozen } from "../spend/model.ts"
import type { GovernedFreezes } from "./GovernedAsk.ts"

/** Fails with `SpendingFrozen` while the team's or the key's spending is frozen (approvals wait for the lift). */
export const assertSpendingOpen = (
  freezes: GovernedFreezes,
  teamId: TeamId,
  spendingKeyId: string | null
): Effect.Effect<void, SpendingFrozen | PersistenceUnavailable> =>
  Effect.flatMap(freezes.active(teamId), (active) => {
    const freeze = active.find((f) => f.spendingKeyId === null) ?? active.find((f) => f.spendingKeyId === spendingKeyId)
    return freeze === undefined
      ? Effect.void
      : Effect.fail(
          new SpendingFrozen({
            message: `${freeze.spendingKeyId === null ? "the team's" : "the key's"} spending is frozen (${freeze.reason}); lift the freeze to approve`
          })
        )
  })

/**
 * A member's decision on a governed request's approval, in one transaction: an approval is refused while the team's or
 * the key's spending is frozen; the step is recorded (`recordApprovalStep`); `decide` ends the request when the step
 * denied it or reached the quorum, and otherwise the request stays pending and `pending` reads it as it now is.
 */
export const decideByStep = <S, E, R>(
  ports: {
    readonly approvals: ApprovalsRepo["Service"]
    readonly outbox: EventOutbox["Service"]
    readonly freezes: GovernedFreezes
    readonly transactor: Transactor["Service"]
  },
  approval: Approval,
  approver: TeamPrincipal,
  outcome: "approved" | "denied",
  note: string | null,
  pending: Effect.Effect<S, PersistenceUnavailable>,
  decide: Effect.Effect<S, E, R>
): Effect.Effect<S, E | DecidedMeanwhile | ApprovalStepRefused | SpendingFrozen | PersistenceUnavailable, R> =>
  ports.transactor.withTransaction(
    Effect.gen(function* () {
      if (outcome === "approved") yield* assertSpendingOpen(ports.freezes, approval.teamId, approval.spendingKeyId)
      const step = yield* recordApprovalStep(ports.approvals, ports.outbox, approval, approver, outcome, note)
      return step.outcome === "recorded" ? yield* pending : yield* decide
    })
  )

/** The subject as stored now; it was read before, and governed subjects are never deleted (else `missing` dies). */
export const storedSubject =
  <S extends { readonly id: string }, X>(
    find: (id: S["id"]) => Effect.Effect<Option.Option<S>, PersistenceUnavailable>,
    missing: (id: S["id"]) => X
  ) =>
  (subject: S): Effect.Effect<S, PersistenceUnavailable> =>
    Effect.flatMap(
      find(subject.id),
      Option.match({ onNone: () => Effect.die(missing(subject.id)), onSome: Effect.succeed })
    )

/** The subject as of now: one past its deadline (`isDue`) is expired first, or read again when another change won. */
export const currentSubject =
  <S, R>(
    isDue: (subject: S, nowMillis: number) => boolean,
    expire: (subject: S) => Effect.Effect<S, DecidedMeanwhile | PersistenceUnavailable, R>,
    stored: (subject: S) => Effect.Effect<S, PersistenceUnavailable>
  ) =>
  (subject: S): Effect.Effect<S, PersistenceUnavailable, R> =>
    Effect.gen(function* () {
      if (!isDue(subject, yield* Clock.currentTimeMillis)) return subject
      return yield* expire(subject).pipe(Effect.catchTag("DecidedMeanwhile", () => stored(subject)))
    })

/**
 * What deciding the approval of a governed subject (a transfer, a checkout intent, a crypto payout, a spend request)
 * needs of it.
 */
export interface GovernedApprovalSubject<S extends { readonly id: string; readonly status: string }, N, E, R> {
  /** The service's name, which prefixes its spans (`Transfers.approve`). */
  readonly name: string
  readonly type: ApprovalSubjectType
  /** The stored subject `id` of the team in `mode`; none when the team has no such subject. */
  readonly find: (teamId: TeamId, mode: Mode, id: string) => Effect.Effect<Option.Option<S>, PersistenceUnavailable>
  readonly stored: (subject: S) => Effect.Effect<S, PersistenceUnavailable>
  /** The subject as of now (`currentSubject`): one past its deadline expired first. */
  readonly current: (subject: S) => Effect.Effect<S, PersistenceUnavailable>
  /** The service's own error for a subject that is no longer pending approval. */
  readonly notPending: (subject: S, status: S["status"]) => N
  /** Decides the subject's pending approval: the first step of either ending. */
  readonly decideApproval: (
    subject: S,
    decision: SubjectApprovalDecision
  ) => Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable>
  /** Ends the subject unpaid (canceled, denied) if it is still in one of `from`, running `before` first, all or nothing. */
  readonly release: (
    subject: S,
    from: ReadonlyArray<S["status"]>,
    outcome: "canceled" | "denied",
    before: Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable>
  ) => Effect.Effect<S, DecidedMeanwhile | PersistenceUnavailable>
  /**
   * Moves an approved subject on from `pending_approval` with what approving it moves (a spend request posts its
   * hold): as it now is, or none when another transition won.
   */
  readonly approve: (subject: S) => Effect.Effect<Option.Option<S>, E | PersistenceUnavailable, R>
  /** What the approved subject publishes, in the same transaction. */
  readonly approved?: (subject: S) => Effect.Effect<void, E | PersistenceUnavailable, R>
}

/**
 * The endings of a governed subject that decide its pending approval. `approve`, `deny`: a member's step on it
 * (`decideByStep`), when the approver may decide it and the subject is pending approval as of now; the subject is
 * approved or denied when the step ends the approval. `cancel`: the subject canceled in the status it has, its pending
 * approval canceled first. When another transition won, the subject's own "not pending" error reports the status it
 * left.
 */
export const governedApprovals = <S extends { readonly id: string; readonly status: string }, N, E, R>(
  ports: {
    readonly approvals: ApprovalsRepo["Service"]
    readonly outbox: EventOutbox["Service"]
    readonly freezes: GovernedFreezes
    readonly transactor: Transactor["Service"]
  },
  subject: GovernedApprovalSubject<S, N, E, R>
) => {
  const reportMeanwhile = meanwhileReporter(subject.stored, subject.notPending)
  const decide = (outcome: "approved" | "denied") =>
    Effect.fn(`${subject.name}.${outcome === "approved" ? "approve" : "deny"}`)(function* (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) {
      const approval = yield* decidableApproval(ports.approvals, approver, approvalId, subject.type)
      const found = yield* subject.find(approval.teamId, approval.mode, approval.subjectId)
      if (Option.isNone(found)) return yield* new ApprovalNotFound({ approvalId })
      const s = yield* subject.current(found.value)
      if (s.status !== "pending_approval") return yield* Effect.fail(subject.notPending(s, s.status))
      const decision = subject.decideApproval(s, { status: outcome, decidedBy: approver.userId, note })
      const end: Effect.Effect<S, E | DecidedMeanwhile | PersistenceUnavailable, R> =
        outcome === "denied"
          ? subject.release(s, [s.status], "denied", decision)
          : ports.transactor.withTransaction(
              Effect.gen(function* () {
                yield* decision
                const updated = yield* subject.approve(s)
                if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
                if (subject.approved !== undefined) yield* subject.approved(updated.value)
                return updated.value
              })
            )
      return yield* reportMeanwhile(s, decideByStep(ports, approval, approver, outcome, note, subject.stored(s), end))
    })
  return {
    approve: decide("approved"),
    deny: decide("denied"),
    cancel: (s: S) =>
      reportMeanwhile(
        s,
        subject.release(
          s,
          [s.status],
          "canceled",
          s.status === "pending_approval"
            ? subject.decideApproval(s, { status: "canceled", decidedBy: null, note: null })
            : Effect.void
        )
      )
  }
}

/**
 * What ending a held subject unpaid undoes in the ledger (a `GovernedSpec.released`): its hold voided, if it has one;
 * a hold posted or voided already means another change won (`DecidedMeanwhile`). Nothing is left to do after commit.
 */
export const releasedHold = (
  ledger: Ledger["Service"],
  subject: { readonly teamId: TeamId; readonly holdTransactionId: LedgerTransactionId | null }
): Effect.Effect<Effect.Effect<void>, DecidedMeanwhile | PersistenceUnavailable> =>
  (subject.holdTransactionId === null ? Effect.void : ledger.voidHold(subject.teamId, subject.holdTransactionId)).pipe(
    Effect.as(Effect.void),
    Effect.catchTags({
      HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
      // The hold is written with the subject, and ledger rows are never deleted.
      HoldNotFound: Effect.die
    })
  )

import { Clock, Effect, Option } from "effect"
import type { AgentPrincipal, TeamPrincipal } from "../access/model.ts"
import {
  type ApprovalNotFound,
  type ApprovalStepRefused,
  type ApprovalSubjectType,
  ApprovalsRepo,
  type ApproverNotAllowed,
  approvalView,
  DecidedMeanwhile,
  decidePendingApproval,
  expireDueSubjects,
  meanwhileReporter,
  type SubjectApprovalDecision
} from "../approvals/index.ts"
import type { Approval, ApprovalView } from "../approvals/model.ts"
import { LedgerRepo } from "../ledger/index.ts"
import type { Account, LedgerTransaction } from "../ledger/model.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  type Mode,
  millisOfIso,
  newId,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  type TeamId,
  Transactor
} from "../shared/index.ts"
import {
  normalizeMerchantName,
  type RequestUsage,
  type SpendDecision,
  type SpendingFrozen,
  usageWindows
} from "../spend/model.ts"
import { currentSubject, governedApprovals, storedSubject } from "./GovernedApprovals.ts"
import { decisionLock, type GovernedBudgets, type GovernedFreezes } from "./GovernedAsk.ts"
import { decideGoverned } from "./GovernedDecision.ts"
import type { GovernedRepo, GovernedRow } from "./GovernedRepo.ts"

/** What the lifecycle reads of spend's ports: the budgets asks are decided under, the freezes approvals wait on. */
export interface GovernedSpendPorts {
  readonly budgets: GovernedBudgets
  readonly freezes: GovernedFreezes
}

/** What happened to a subject, as the kernel tells it: made, routed, or ended unpaid (`O`). */
export type GovernedEvent<O extends string> = "created" | "approval_required" | "denied" | O

/**
 * What one governed subject adds to the kernel: its storage and names, where an approved one goes, which of its states
 * are due, and what ending it unpaid undoes besides its budget usage. `O` are the outcomes that end it unpaid.
 */
export interface GovernedSpec<S extends GovernedRow, T, Q, O extends string, NF, NP, I> {
  /** The service's name, which prefixes its spans (`Transfers.get`). */
  readonly name: string
  readonly type: ApprovalSubjectType
  readonly repo: GovernedRepo<S, T, Q>
  readonly id: { readonly make: (s: string) => S["id"]; readonly is: (u: unknown) => u is S["id"] }
  /** The category its asks are governed (and their category budgets counted) under; null for the merchant's own. */
  readonly category: string | null
  /** What an approved ask moves at once: a hold, or nothing (it is funded later). */
  readonly whenApproved: "hold" | "none"
  /** The status an ask the policy approved starts in (an approved one moves there from `pending_approval` too). */
  readonly approvedStatus: S["status"]
  /** The team whose approval decides the subject. */
  readonly approvingTeam: (subject: S) => TeamId
  /** Whether the team is a party to the subject (it sees it). */
  readonly party: (subject: S, teamId: TeamId) => boolean
  readonly notFound: (id: string) => NF
  /** The subject's own error for one that is no longer in a status the operation needs. */
  readonly notPending: (subject: S, status: S["status"]) => NP
  /** The subject's own error for an ask at fault (the policy's `SpendRequestInvalid`, renamed). */
  readonly invalid: (field: string, message: string) => I
  /** Whether an open subject is past its deadline at `nowMillis`. */
  readonly isDue: (subject: S, nowMillis: number) => boolean
  /** The transition that ends a subject unpaid with `outcome` at `at` (`reason`: why it failed, if it did). */
  readonly ended: (outcome: O, at: string, reason: string | null) => T
  /** The transition that moves an approved subject on from `pending_approval` at `nowMillis`. */
  readonly approvedAt: (nowMillis: number) => Effect.Effect<T>
  /**
   * What ending the subject unpaid undoes besides its budget usage (its hold, its code, its card), in the ending's
   * transaction; answers what to do once it committed.
   */
  readonly released: (subject: S) => Effect.Effect<Effect.Effect<void>, DecidedMeanwhile | PersistenceUnavailable>
  /** Publishes the subject's events, in the transaction; `was` is the subject before the change. */
  readonly publish: (
    subject: S,
    events: ReadonlyArray<GovernedEvent<O>>,
    was: S
  ) => Effect.Effect<void, PersistenceUnavailable>
  /** What an approved subject publishes, in the same transaction. */
  readonly approved?: (subject: S) => Effect.Effect<void, PersistenceUnavailable>
}

/** A new subject's decision: its id and first status, and what the decision writes. */
export interface GovernedStart<S extends GovernedRow> {
  readonly id: S["id"]
  readonly status: S["status"]
  readonly decision: SpendDecision
  readonly account: Account
  readonly ledgerTransaction: LedgerTransaction | null
  readonly approval: Approval | null
  readonly usage: RequestUsage
  /** `approval` as the subject shows it. */
  readonly approvalView: ApprovalView | null
  readonly createdAt: string
}

/**
 * The lifecycle every governed subject shares, written once: decided under policy and budgets and recorded with its
 * approval, hold, usage and events under the decision's locks; read as of now (one past its deadline expired first);
 * ended unpaid (canceled, expired, denied, or the subject's own outcomes) with its usage given back, all or nothing;
 * approved or denied by a member's step (`governedApprovals`); expired when due by the sweep.
 */
export const governedLifecycle = <S extends GovernedRow, T, Q, O extends string, NF, NP, I>(
  spend: GovernedSpendPorts,
  spec: GovernedSpec<S, T, Q, O | "canceled" | "expired" | "denied", NF, NP, I>
) =>
  Effect.gen(function* () {
    const ports = {
      ...spend,
      approvals: yield* ApprovalsRepo,
      outbox: yield* EventOutbox,
      transactor: yield* Transactor,
      ledgerRepo: yield* LedgerRepo
    }
    const { repo } = spec
    type Ending = O | "canceled" | "expired" | "denied"

    /**
     * Decides a new ask of `agent` at `now` under the locks of its account and budgets (inside the caller's
     * transaction): its id, first status and what it writes.
     */
    const decide = (
      agent: AgentPrincipal,
      now: number,
      ask: { readonly amount: number; readonly currency: string; readonly merchant: string }
    ) =>
      Effect.gen(function* () {
        const lock = decisionLock(agent, agent.accountId, now, spec.category, normalizeMerchantName(ask.merchant))
        const [inputs] = yield* ports.budgets.lockForDecisions([lock])
        const id = yield* newId(spec.id)
        const governed = yield* decideGoverned(
          agent,
          {
            amount: ask.amount,
            currency: ask.currency,
            merchant: spec.category === null ? { name: ask.merchant } : { name: ask.merchant, category: spec.category },
            accountId: agent.accountId
          },
          { type: spec.type, id, whenApproved: spec.whenApproved },
          // The lock of one request answers one state.
          inputs ?? (yield* Effect.die(new Error(`no locked state for the ${spec.type}`))),
          now,
          lock.windows
        ).pipe(Effect.catchTag("SpendRequestInvalid", (e) => Effect.fail(spec.invalid(e.field, e.message))))
        const outcome = governed.decision.outcome
        const start: GovernedStart<S> = {
          ...governed,
          id,
          status: outcome === "approved" ? spec.approvedStatus : (outcome as S["status"]),
          approvalView: governed.approval === null ? null : approvalView(governed.approval, null),
          createdAt: isoOfMillis(now)
        }
        return start
      })

    /**
     * Records a decided subject: its approval, its hold, the subject, `after` (what the subject itself holds), its
     * budget usage and its events, in the caller's transaction.
     */
    const record = <E = never, R = never>(
      subject: S,
      start: GovernedStart<S>,
      after: Effect.Effect<void, E, R> = Effect.void
    ) =>
      Effect.gen(function* () {
        if (start.approval !== null) yield* ports.approvals.insert(start.approval)
        if (start.ledgerTransaction !== null) {
          yield* ports.ledgerRepo
            .insertTransaction(start.ledgerTransaction)
            // A fresh id as reference, on accounts locked above: neither a duplicate nor a resolved hold.
            .pipe(Effect.catchTags({ DuplicateLedgerTransaction: Effect.die, HoldAlreadyResolved: Effect.die }))
        }
        yield* repo.insert(subject)
        yield* after
        yield* ports.budgets.recordUsage(subject.spendingKeyId, start.usage)
        yield* spec.publish(
          subject,
          start.status === spec.approvedStatus
            ? ["created"]
            : ["created", start.status === "denied" ? "denied" : "approval_required"],
          subject
        )
        return subject
      })

    /** The subject `id` the team is a party to, in `mode`; none when the team has no such subject. */
    const visible = (teamId: TeamId, mode: Mode, id: string) =>
      Effect.map(
        spec.id.is(id) ? repo.find(id) : Effect.succeedNone,
        Option.filter((s: S) => s.mode === mode && spec.party(s, teamId))
      )

    const found = (teamId: TeamId, mode: Mode, id: string) =>
      Effect.flatMap(
        visible(teamId, mode, id),
        Option.match({ onNone: () => Effect.fail(spec.notFound(id)), onSome: Effect.succeed })
      )

    const stored = storedSubject(repo.find, spec.notFound)

    /** Decides the subject's pending approval, on the approving team's side. */
    const decideApproval = (s: S, d: SubjectApprovalDecision) =>
      decidePendingApproval(ports.approvals, spec.approvingTeam(s), s.approval, d)

    /**
     * Ends an open subject unpaid: the status if it is still one of `from`, what the subject undoes (`released`), the
     * budget usage given back, the event; all or nothing, `before` first.
     */
    const release = (
      s: S,
      from: ReadonlyArray<S["status"]>,
      outcome: Ending,
      before: Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable> = Effect.void,
      reason: string | null = null
    ): Effect.Effect<S, DecidedMeanwhile | PersistenceUnavailable> =>
      ports.transactor
        .withTransaction(
          Effect.gen(function* () {
            yield* before
            const updated = yield* repo.transition(s.id, from, spec.ended(outcome, yield* nowIso, reason))
            if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
            const afterCommit = yield* spec.released(s)
            yield* ports.budgets.moveUsage(
              s.spendingKeyId,
              usageWindows(millisOfIso(s.createdAt), spec.category),
              -s.amount
            )
            yield* spec.publish(updated.value, [outcome], s)
            return { updated: updated.value, afterCommit }
          })
        )
        .pipe(Effect.flatMap(({ updated, afterCommit }) => Effect.as(afterCommit, updated)))

    const expire = (s: S) =>
      release(
        s,
        [s.status],
        "expired",
        s.status === "pending_approval" && s.approval !== null
          ? decideApproval(s, { status: "expired", decidedBy: null, note: null })
          : Effect.void
      )

    /** The subject as of now: an open one past its deadline is expired first. */
    const current = currentSubject(spec.isDue, expire, stored)

    const governed = governedApprovals(ports, {
      name: spec.name,
      type: spec.type,
      find: visible,
      stored,
      current,
      notPending: spec.notPending,
      decideApproval,
      release,
      approve: (s) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.flatMap(spec.approvedAt(now), (t) => repo.transition(s.id, ["pending_approval"], t))
        ),
      ...(spec.approved === undefined ? {} : { approved: spec.approved })
    })

    return {
      decide,
      record,
      found,
      stored,
      release,
      current,
      /** Fails with the status another transition left, when one won. */
      reportMeanwhile: meanwhileReporter(stored, spec.notPending),
      /** Cancels the open subject: its pending approval canceled first. */
      cancel: governed.cancel,
      /** The operations every governed subject's service offers as they are. */
      operations: {
        get: Effect.fn(`${spec.name}.get`)(function* (teamId: TeamId, mode: Mode, id: string) {
          return yield* current(yield* found(teamId, mode, id))
        }),
        /** The team's subjects as of now, of the status and approval status asked. */
        list: Effect.fn(`${spec.name}.list`)(function* (
          teamId: TeamId,
          query: Q & { readonly status?: S["status"] | undefined; readonly approvalStatus?: string | undefined },
          page: PageRequest
        ) {
          const rows = yield* Effect.forEach(yield* repo.list(teamId, query, page), current)
          return rows.filter(
            (s) =>
              spec.party(s, teamId) &&
              (query.status === undefined || s.status === query.status) &&
              (query.approvalStatus === undefined || s.approval?.status === query.approvalStatus)
          )
        }),
        approve: governed.approve,
        deny: governed.deny,
        expireDue: expireDueSubjects(repo.dueForExpiry, expire).pipe(Effect.withSpan(`${spec.name}.expireDue`))
      }
    }
  })

/** Why a member's approval or denial of a governed subject is refused; `NP` is the subject's own "not pending". */
export type GovernedDecisionError<NP> =
  | ApprovalNotFound
  | ApproverNotAllowed
  | ApprovalStepRefused
  | SpendingFrozen
  | NP
  | PersistenceUnavailable

/** A member of the approving team lets a governed subject over the threshold go on, or denies it, by its approval. */
export type GovernedApprovalDecision<S, NP> = (
  approver: TeamPrincipal,
  approvalId: string,
  note: string | null
) => Effect.Effect<S, GovernedDecisionError<NP>>

/**
 * The operations every governed subject's service offers alike (`governedLifecycle(…).operations`): `S` listed by `Q`,
 * `NF` its "not found", `NP` its "not pending".
 */
export interface GovernedOperations<S, Q, NF, NP> {
  /** A subject the team is a party to, in `mode`, as of now (an open one past its deadline is expired first). */
  readonly get: (teamId: TeamId, mode: Mode, id: string) => Effect.Effect<S, NF | PersistenceUnavailable>
  /** The team's subjects as of now, newest first, by cursor. */
  readonly list: (
    teamId: TeamId,
    query: Q,
    page: PageRequest
  ) => Effect.Effect<ReadonlyArray<S>, PersistenceUnavailable>
  /** A member of the approving team lets a subject over the threshold go on. */
  readonly approve: GovernedApprovalDecision<S, NP>
  /** A member of the approving team denies it. */
  readonly deny: GovernedApprovalDecision<S, NP>
  /** Expires every open subject past its deadline; returns how many it expired. */
  readonly expireDue: Effect.Effect<number, PersistenceUnavailable>
}

import { Clock, Context, type Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import type { AgentPrincipal, TeamPrincipal } from "../access/model.ts"
import {
  type ApprovalNotFound,
  type ApprovalStepRefused,
  ApprovalsRepo,
  type ApproverNotAllowed,
  DecidedMeanwhile,
  decidePendingApproval,
  expireDueSubjects,
  isApprovalDue,
  type SubjectApprovalDecision
} from "../approvals/index.ts"
import { currentSubject, decisionLock, governedApprovals, storedSubject } from "../governance/index.ts"
import { type HoldAlreadyResolved, type HoldNotFound, Ledger, type LedgerTransaction } from "../ledger/index.ts"
import { EventOutbox, type OnceWrite } from "../platform/index.ts"
import { millisOfIso, nowIso, type PersistenceUnavailable, type TeamId, Transactor } from "../shared/index.ts"
import type { Mode, PageRequest } from "../shared/model.ts"
import { decideSpend, spendEvents } from "./SpendDecision.ts"
import type { SpendingFrozen } from "./SpendFreeze.ts"
import { SpendFreezesRepo } from "./SpendFreezes.ts"
import { countApprovalOutcome } from "./SpendMetrics.ts"
import type { SpendDecision } from "./SpendPolicy.ts"
import { normalizeMerchantName } from "./SpendPolicy.ts"
import {
  askedAccountId,
  CreateSpendRequest,
  type SpendRequest,
  type SpendRequestEventType,
  SpendRequestId,
  SpendRequestInvalid,
  SpendRequestNotFound,
  SpendRequestNotPending,
  type SpendRequestQuery,
  type Transition,
  usageWindows
} from "./SpendRequest.ts"
import { SpendRequestsRepo } from "./SpendRequestsRepo.ts"
import { type CreateSpendError, makeSpendWriter, type SubmitError } from "./SpendWriter.ts"

type DecisionError =
  | ApprovalNotFound
  | SpendRequestNotPending
  | ApproverNotAllowed
  | ApprovalStepRefused
  | SpendingFrozen
  | PersistenceUnavailable

/** Governed agent spend: policy and budgets decide, humans approve above the threshold, the ledger moves the money once. */
export class SpendRequests extends Context.Service<
  SpendRequests,
  {
    /**
     * Decides and records a new request. Requests are decided in batches (group commit): this one joins the next
     * batch and commits with it, in a transaction of its own, so it never joins a caller's transaction.
     */
    readonly create: (
      agent: AgentPrincipal,
      input: CreateSpendRequest
    ) => Effect.Effect<SpendRequest, CreateSpendError | PersistenceUnavailable>
    /**
     * `create` at most once per idempotency key: its outcome (the request, or the refusal that stands) is stored in the
     * same commit as its work, in the form `storedSpendOutcome` reads back (ADR 0047). Refused with `IdempotencyKeyInUse` while another request holds the key, and with
     * `AnsweredMeanwhile` when one with the same key finished first (this one then does nothing).
     */
    readonly createOnce: (
      agent: AgentPrincipal,
      input: CreateSpendRequest,
      once: OnceWrite
    ) => Effect.Effect<SpendRequest, SubmitError>
    /**
     * What `create` would decide for this request now (a dry run): read without locks, writing nothing (no budget use,
     * no hold, no approval, no idempotency record); refused as `create` would refuse it.
     */
    readonly evaluate: (
      agent: AgentPrincipal,
      input: CreateSpendRequest
    ) => Effect.Effect<SpendDecision, CreateSpendError | PersistenceUnavailable>
    /** A request as of now: a pending request past its expiry is expired first. */
    readonly get: (
      teamId: TeamId,
      mode: Mode | undefined,
      id: SpendRequestId
    ) => Effect.Effect<SpendRequest, SpendRequestNotFound | PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      query: SpendRequestQuery,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<SpendRequest>, PersistenceUnavailable>
    readonly cancel: (
      agent: AgentPrincipal,
      id: SpendRequestId
    ) => Effect.Effect<SpendRequest, SpendRequestNotFound | SpendRequestNotPending | PersistenceUnavailable>
    readonly approve: (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) => Effect.Effect<SpendRequest, DecisionError>
    readonly deny: (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) => Effect.Effect<SpendRequest, DecisionError>
    /** Expires every pending request past its approval TTL, releasing its hold; returns how many it expired. */
    readonly expireDue: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/SpendRequests") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* SpendRequestsRepo
    const ledger = yield* Ledger
    const outbox = yield* EventOutbox
    const approvals = yield* ApprovalsRepo
    const transactor = yield* Transactor
    const freezes = yield* SpendFreezesRepo

    const publish = (sr: SpendRequest, type: SpendRequestEventType) =>
      Effect.flatMap(nowIso, (createdAt) => spendEvents(sr, [type], createdAt)).pipe(
        Effect.flatMap((events) => outbox.publish(...events))
      )

    const submit = yield* makeSpendWriter
    const checkedAmount = (input: CreateSpendRequest) =>
      Schema.decodeUnknownEffect(CreateSpendRequest.fields.amount)(input.amount).pipe(
        Effect.mapError((e) => new SpendRequestInvalid({ field: "amount", message: e.message }))
      )

    const create = Effect.fn("SpendRequests.create")(function* (agent: AgentPrincipal, input: CreateSpendRequest) {
      yield* checkedAmount(input)
      return yield* submit(agent, input, undefined).pipe(
        Effect.catchTags({
          // Only a request with an idempotency key can meet another holding its key.
          IdempotencyKeyInUse: Effect.die,
          AnsweredMeanwhile: Effect.die
        })
      )
    })

    const evaluate = Effect.fn("SpendRequests.evaluate")(function* (agent: AgentPrincipal, input: CreateSpendRequest) {
      yield* checkedAmount(input)
      const now = yield* Clock.currentTimeMillis
      const lock = decisionLock(
        agent,
        askedAccountId(input) ?? agent.accountId,
        now,
        input.merchant.category,
        normalizeMerchantName(input.merchant.name)
      )
      const inputs = yield* repo.readForDecision(lock)
      const decided = yield* decideSpend(agent, input, inputs, now, lock.windows)
      return decided.request.decision
    })

    const createOnce = Effect.fn("SpendRequests.createOnce")(function* (
      agent: AgentPrincipal,
      input: CreateSpendRequest,
      once: OnceWrite
    ) {
      yield* checkedAmount(input)
      return yield* submit(agent, input, once)
    })

    /** Resolves the request's hold; one resolved already was resolved by a transition that won. */
    const resolveHold = (
      resolve: Effect.Effect<LedgerTransaction, HoldNotFound | HoldAlreadyResolved | PersistenceUnavailable>
    ) =>
      resolve.pipe(
        Effect.catchTags({
          HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
          // The hold is written with the request and referenced by it (a foreign key), and ledger rows are never deleted.
          HoldNotFound: Effect.die
        })
      )

    /** Publishes the request's ending, in the transaction, and counts it once committed. */
    const ended = (sr: SpendRequest, outcome: Transition["status"]) =>
      Effect.gen(function* () {
        yield* publish(sr, `spend_request.${outcome}`)
        yield* transactor.afterCommit(countApprovalOutcome(outcome))
        return sr
      })

    const decideApproval = (sr: SpendRequest, decision: SubjectApprovalDecision) =>
      decidePendingApproval(approvals, sr.teamId, sr.approval, decision)

    /**
     * Ends a pending request unpaid: `before` (its approval decided), its hold voided, the row, its budget usage given
     * back, the event; all or nothing. Only a pending request moves (`from` is always `pending_approval` here).
     */
    const release = (
      sr: SpendRequest,
      _from: ReadonlyArray<SpendRequest["status"]>,
      outcome: "canceled" | "denied" | "expired",
      before: Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable>
    ): Effect.Effect<SpendRequest, DecidedMeanwhile | PersistenceUnavailable> =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* before
          if (sr.holdTransactionId !== null) yield* resolveHold(ledger.voidHold(sr.teamId, sr.holdTransactionId))
          const updated = yield* repo.transition(sr.teamId, sr.id, {
            status: outcome,
            ledgerTransactionId: null,
            updatedAt: yield* nowIso
          })
          if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
          yield* repo.moveUsage(
            sr.spendingKeyId,
            usageWindows(millisOfIso(sr.createdAt), sr.merchant.category),
            -sr.amount
          )
          return yield* ended(updated.value, outcome)
        })
      )

    const expire = (sr: SpendRequest) =>
      release(sr, [sr.status], "expired", decideApproval(sr, { status: "expired", decidedBy: null, note: null }))

    const stored = (sr: SpendRequest) =>
      storedSubject(
        (id: SpendRequestId) => repo.find(sr.teamId, id),
        (id) => new SpendRequestNotFound({ id })
      )(sr)

    const isExpired = (sr: SpendRequest, nowMillis: number) =>
      sr.status === "pending_approval" && sr.approval !== null && isApprovalDue(sr.approval, nowMillis)

    /** The request as of now: a pending one past its expiry is expired first. */
    const current = currentSubject(isExpired, expire, stored)

    const governed = governedApprovals(
      { approvals, outbox, freezes, transactor },
      {
        name: "SpendRequests",
        type: "spend_request",
        // An approval is decided on its own team's request.
        find: (teamId, _mode, id) => repo.find(teamId, SpendRequestId.make(id)),
        stored,
        current,
        notPending: (sr, status) => new SpendRequestNotPending({ id: sr.id, status }),
        decideApproval,
        release,
        // An approved request posts its hold: the money moves now.
        approve: (sr) =>
          Effect.gen(function* () {
            const posted =
              sr.holdTransactionId === null
                ? null
                : yield* resolveHold(ledger.postHold(sr.teamId, sr.holdTransactionId))
            return yield* repo.transition(sr.teamId, sr.id, {
              status: "approved",
              ledgerTransactionId: posted === null ? null : posted.id,
              updatedAt: yield* nowIso
            })
          }),
        approved: (sr) =>
          Effect.gen(function* () {
            if (sr.ledgerTransactionId !== null) {
              yield* repo.rememberMerchants([
                {
                  teamId: sr.teamId,
                  mode: sr.mode,
                  merchant: normalizeMerchantName(sr.merchant.name),
                  at: yield* nowIso
                }
              ])
            }
            yield* ended(sr, "approved")
          })
      }
    )

    const found = (teamId: TeamId, id: SpendRequestId, mode: Mode | undefined) =>
      repo
        .find(teamId, id)
        .pipe(
          Effect.flatMap((sr) =>
            Option.isSome(sr) && (mode === undefined || sr.value.mode === mode)
              ? Effect.succeed(sr.value)
              : Effect.fail(new SpendRequestNotFound({ id }))
          )
        )

    const get = Effect.fn("SpendRequests.get")(function* (teamId: TeamId, mode: Mode | undefined, id: SpendRequestId) {
      return yield* current(yield* found(teamId, id, mode))
    })

    const list = Effect.fn("SpendRequests.list")(function* (
      teamId: TeamId,
      query: SpendRequestQuery,
      page: PageRequest
    ) {
      const rows = yield* repo.list(teamId, query, page)
      const refreshed = yield* Effect.forEach(rows, current)
      return refreshed.filter(
        (sr) =>
          (query.status === undefined || sr.status === query.status) &&
          (query.approvalStatus === undefined || sr.approval?.status === query.approvalStatus)
      )
    })

    const cancel = Effect.fn("SpendRequests.cancel")(function* (agent: AgentPrincipal, id: SpendRequestId) {
      const now = yield* current(yield* found(agent.teamId, id, agent.mode))
      if (now.status !== "pending_approval") return yield* new SpendRequestNotPending({ id, status: now.status })
      return yield* governed.cancel(now)
    })

    const expireDue = expireDueSubjects(repo.dueForExpiry, expire).pipe(Effect.withSpan("SpendRequests.expireDue"))

    return SpendRequests.of({
      create,
      evaluate,
      createOnce,
      get,
      list,
      cancel,
      approve: governed.approve,
      deny: governed.deny,
      expireDue
    })
  })
  static readonly layer = Layer.effect(SpendRequests, SpendRequests.make)

  /** A background fiber that expires due approvals every `interval`, for as long as the layer lives. */
  static readonly sweeper = (interval: Duration.Input) =>
    Layer.effectDiscard(
      Effect.gen(function* () {
        const service = yield* SpendRequests
        yield* service.expireDue.pipe(
          Effect.tap((n) => (n > 0 ? Effect.logInfo(`expired ${n} pending approvals`) : Effect.void)),
          Effect.catchCause((cause) => Effect.logWarning("approval sweep failed; retrying next round", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.forkScoped
        )
      })
    )
}

import {
  Array as Arr,
  Cause,
  Clock,
  type Context,
  Data,
  Deferred,
  Effect,
  Exit,
  Metric,
  Option,
  Queue,
  Result,
  Schema
} from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { decisionLock } from "../governance/index.ts"
import { SettlementAccountMissing } from "../ledger/index.ts"
import {
  AnsweredMeanwhile,
  IdempotencyKeyInUse,
  type IdempotencyScope,
  IdempotencyStore,
  type OnceWrite,
  type StoredAnswer
} from "../platform/index.ts"
import { nowIso } from "../shared/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"
import { carryForward, decideSpend, knownMerchantKey } from "./SpendDecision.ts"
import { countDecision } from "./SpendMetrics.ts"
import { normalizeMerchantName } from "./SpendPolicy.ts"
import { askedAccountId, type CreateSpendRequest, SpendRequest, type SpendRequestInvalid } from "./SpendRequest.ts"
import { type DecidedSpend, SpendRequestsRepo } from "./SpendRequestsRepo.ts"

/** The most requests one batch decides; the rest wait for the next. */
const SPEND_BATCH_CAP = 64

/** Why a new request is refused: it is malformed, or the team cannot spend in its currency. */
export type CreateSpendError = SpendRequestInvalid | SettlementAccountMissing

/** Why a submitted request got no decision of its own. */
export type SubmitError = CreateSpendError | IdempotencyKeyInUse | AnsweredMeanwhile | PersistenceUnavailable

/**
 * A new request's outcome as its idempotency key keeps it (ADR 0047): the request as decided, or the refusal that
 * stands for its key. Stored in its JSON form with the work, and rendered by the adapter that took the request.
 */
const SpendOutcome = Schema.toCodecJson(
  Schema.Union([Schema.TaggedStruct("SpendRequestCreated", { request: SpendRequest }), SettlementAccountMissing])
)

/**
 * The outcome a request's key keeps: the request, or the refusal of a team that cannot spend in its currency. None for
 * a malformed request, so a corrected retry with the same key runs, and for a failure of the service, so a later one
 * does.
 */
const outcomeToStore = (outcome: Exit.Exit<SpendRequest, SubmitError>): Option.Option<typeof SpendOutcome.Type> => {
  if (Exit.isSuccess(outcome)) return Option.some({ _tag: "SpendRequestCreated", request: outcome.value })
  return Option.filter(
    Cause.findErrorOption(outcome.cause),
    (e): e is SettlementAccountMissing => e instanceof SettlementAccountMissing
  )
}

/** A stored outcome of `createOnce` (`StoredOutcome.outcome`) as the request's answer: the request, or its refusal. */
export const storedSpendOutcome = (outcome: Schema.Json): Effect.Effect<SpendRequest, SettlementAccountMissing> =>
  Schema.decodeUnknownEffect(SpendOutcome)(outcome).pipe(
    // Written by `createOnce` through this very Schema.
    Effect.orDie,
    Effect.flatMap((o) => (o._tag === "SpendRequestCreated" ? Effect.succeed(o.request) : Effect.fail(o)))
  )

const batchSizes = Metric.histogram("spend_batch_size", {
  description: "Spend requests decided per committed batch (group commit)",
  boundaries: [1, 2, 4, 8, 16, 32, 64]
})

/** The sizes of committed spend batches (a histogram): how many requests each commit carried. */
export const spendBatchSizes = Metric.value(batchSizes)

interface Submission {
  readonly agent: AgentPrincipal
  readonly input: CreateSpendRequest
  readonly once: OnceWrite | undefined
  /** When the request arrived (epoch millis): it is decided as of then, in its budget windows of then. */
  readonly now: number
  /** The submitter's context: its clock and id source make the request's ids, its span is the decision's parent. */
  readonly context: Context.Context<never>
  readonly done: Deferred.Deferred<SpendRequest, SubmitError>
}

/** Answers the store refused because requests with the same keys finished first: their positions in the batch. */
class AnswersRefused extends Data.TaggedError("AnswersRefused")<{ readonly refused: ReadonlySet<number> }> {}

/**
 * The batching writer behind `SpendRequests.create` (group commit). Requests that arrive while a batch is being
 * written wait and form the next batch, up to `SPEND_BATCH_CAP`, so a lone request goes at once and a busy moment
 * shares one transaction. In it: the idempotency keys are claimed (a key another request holds answers "in use"),
 * the accounts and budget totals of every request are locked in one fixed order, each request is decided in arrival
 * order on that state as the ones before it left it, all of it is written in one write per port, the answers are
 * stored, and one commit makes it all durable before any submitter hears back. A batch that fails is retried
 * request by request, so one bad request fails alone; one whose answer lost to a finished request with the same key
 * is retried without it, and that request gets the stored answer.
 */
export const makeSpendWriter = Effect.gen(function* () {
  const repo = yield* SpendRequestsRepo
  const idempotency = yield* IdempotencyStore
  const queue = yield* Queue.unbounded<Submission>()

  /**
   * One transaction deciding and writing `batch`; each request's outcome, in order. Its work is asked for in two
   * independent pairs: the key claims with the decision locks (a request whose key is held elsewhere locks its
   * accounts for nothing, which is harmless), then the writes with the answers. A store that runs a transaction's
   * statements one after another makes each its own round trip: the pairs are independent, not one trip each.
   */
  const write = (batch: Arr.NonEmptyReadonlyArray<Submission>) => {
    const claiming = batch.flatMap((s, i) => (s.once === undefined ? [] : [{ i, scope: s.once.scope }]))
    const merchants = Arr.map(batch, (s) => normalizeMerchantName(s.input.merchant.name))
    const locks = Arr.map(batch, (s, i) =>
      decisionLock(
        s.agent,
        askedAccountId(s.input) ?? s.agent.accountId,
        s.now,
        s.input.merchant.category,
        merchants[i]
      )
    )
    const windows = Arr.map(locks, (l) => l.windows)
    return idempotency.exclusiveEach(
      claiming.map((c) => c.scope),
      (claims) =>
        Effect.gen(function* () {
          const [held, inputs] = yield* Effect.all([claims, repo.lockForDecisions(locks)], { concurrency: "unbounded" })
          const inUse = new Set(claiming.filter((_, k) => held[k] !== true).map((c) => c.i))
          const state = carryForward(inputs, windows)
          const outcomes: Array<Exit.Exit<SpendRequest, SubmitError>> = []
          const decided: Array<DecidedSpend> = []
          const answers: Array<{
            readonly i: number
            readonly scope: IdempotencyScope
            readonly response: StoredAnswer
          }> = []
          for (const [i, s] of batch.entries()) {
            if (inUse.has(i)) {
              outcomes.push(Exit.fail(new IdempotencyKeyInUse()))
              continue
            }
            const merchant = merchants[i]
            const on = state.inputsOf(
              i,
              s.agent.keyId,
              merchant === undefined ? undefined : knownMerchantKey(s.agent.teamId, s.agent.mode, merchant)
            )
            // Under the submitter's context (its clock, ids and span), provided once: each provision copies it.
            const [exit, answeredAt] = yield* Effect.all([
              Effect.exit(decideSpend(s.agent, s.input, on, s.now, locks[i]?.windows ?? windows[0])),
              nowIso
            ]).pipe(Effect.provideContext(s.context))
            if (Exit.isSuccess(exit)) {
              state.record(exit.value, on)
              decided.push(exit.value)
            }
            const outcome = Exit.map(exit, (d) => d.request)
            outcomes.push(outcome)
            const kept = s.once === undefined ? Option.none() : outcomeToStore(outcome)
            if (s.once !== undefined && Option.isSome(kept)) {
              answers.push({
                i,
                scope: s.once.scope,
                response: {
                  fingerprint: s.once.fingerprint,
                  // Encoded by the Schema the outcome was built for.
                  outcome: yield* Effect.orDie(Schema.encodeEffect(SpendOutcome)(kept.value)),
                  createdAt: answeredAt
                }
              })
            }
          }
          const [, saved] = yield* Effect.all(
            [
              Arr.isArrayNonEmpty(decided) ? repo.insertDecided(decided) : Effect.void,
              Arr.isArrayNonEmpty(answers) ? idempotency.saveEach(answers) : Effect.succeed([])
            ],
            { concurrency: "unbounded" }
          )
          const refused = new Set(answers.filter((_, k) => saved[k] !== true).map((a) => a.i))
          if (refused.size > 0) return yield* new AnswersRefused({ refused })
          return outcomes
        })
    )
  }

  /** The answer a request whose answer was refused gets: the one stored first under its key. */
  const answeredBefore = (s: Submission): Effect.Effect<never, SubmitError> =>
    s.once === undefined
      ? Effect.die(new Error("an answer was refused for a request without a key"))
      : idempotency.find(s.once.scope).pipe(
          Effect.flatMap(
            Option.match<Effect.Effect<never, SubmitError>, StoredAnswer>({
              // The answer was purged in the instant between: the key is free again, so the client may retry.
              onNone: () => Effect.fail(new IdempotencyKeyInUse()),
              onSome: (answer) => Effect.fail(new AnsweredMeanwhile({ answer }))
            })
          )
        )

  const settle = (s: Submission, outcome: Exit.Exit<SpendRequest, SubmitError>) =>
    Effect.andThen(Exit.isSuccess(outcome) ? countDecision(outcome.value) : Effect.void, Deferred.done(s.done, outcome))

  const run = (batch: Arr.NonEmptyReadonlyArray<Submission>): Effect.Effect<void> =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        write(batch).pipe(
          Effect.map(Result.succeed),
          Effect.catchTag("AnswersRefused", (e) => Effect.succeed(Result.fail(e.refused)))
        )
      )
      if (Exit.isFailure(exit)) {
        if (batch.length > 1) return yield* Effect.forEach(batch, (s) => run([s]), { discard: true })
        return yield* Effect.forEach(batch, (s) => settle(s, Exit.failCause(exit.cause)), { discard: true })
      }
      const written = exit.value
      if (Result.isSuccess(written)) {
        yield* Metric.update(batchSizes, batch.length)
        yield* Effect.forEach(batch, (s, i) => settle(s, written.success[i] ?? Exit.fail(new IdempotencyKeyInUse())))
        return
      }
      const refused = written.failure
      yield* Effect.forEach(
        batch.filter((_, i) => refused.has(i)),
        (s) => Effect.flatMap(Effect.exit(answeredBefore(s)), (outcome) => settle(s, outcome))
      )
      const rest = batch.filter((_, i) => !refused.has(i))
      if (Arr.isArrayNonEmpty(rest)) yield* run(rest)
    }).pipe(Effect.onInterrupt(() => Effect.forEach(batch, (s) => Deferred.interrupt(s.done))))

  yield* Queue.takeBetween(queue, 1, SPEND_BATCH_CAP).pipe(
    Effect.flatMap((batch) =>
      Arr.isArrayNonEmpty(batch)
        ? run(batch).pipe(
            // A defect outside the batch's transaction fails its requests, not the writer: the next batch still runs.
            Effect.catchDefect((defect) => Effect.forEach(batch, (s) => Deferred.die(s.done, defect)))
          )
        : Effect.void
    ),
    Effect.forever,
    Effect.forkScoped
  )
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(Queue.clear(queue), (waiting) => Effect.forEach(waiting, (s) => Deferred.interrupt(s.done)))
  )

  /** Decides a new request in the next batch; with `once`, at most once per key, its outcome stored with its work. */
  return (
    agent: AgentPrincipal,
    input: CreateSpendRequest,
    once: OnceWrite | undefined
  ): Effect.Effect<SpendRequest, SubmitError> =>
    Effect.gen(function* () {
      const done = yield* Deferred.make<SpendRequest, SubmitError>()
      const now = yield* Clock.currentTimeMillis
      const context = yield* Effect.context<never>()
      yield* Queue.offer(queue, { agent, input, once, now, context, done })
      return yield* Deferred.await(done)
    })
})

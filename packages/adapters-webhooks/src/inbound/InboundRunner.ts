import {
  type InboundEvent,
  InboundEventStore,
  InboundProcessingFailed,
  InboundRetryConfig,
  type InboundRetryPolicy,
  inboundRetryAt,
  isoOfMillis
} from "@svc/domain"
import { Cause, Clock, Context, Effect, Layer } from "effect"
import { InboundProcessor } from "./InboundProcessor.ts"

/** Runs claimed inbound events through the processor and records the outcome (processed, retry later, or parked); time comes from `Clock`. */
export class InboundRunner extends Context.Service<
  InboundRunner,
  {
    /** Processes one claimed event; fails with the processing failure after recording it. */
    readonly run: (event: InboundEvent) => Effect.Effect<void, InboundProcessingFailed>
    /** The worker's step: claims and processes a batch of due events; returns how many it took. */
    readonly runDue: Effect.Effect<number>
    readonly policy: InboundRetryPolicy
  }
>()("@svc/adapters-webhooks/InboundRunner") {
  static readonly layer = Layer.effect(
    InboundRunner,
    Effect.gen(function* () {
      const store = yield* InboundEventStore
      const processor = yield* InboundProcessor
      const policy = yield* InboundRetryConfig

      const run = (event: InboundEvent) =>
        processor.process(event).pipe(
          Effect.catchCause((cause) =>
            Effect.fail(
              Cause.hasFails(cause)
                ? (Cause.squash(cause) as InboundProcessingFailed)
                : new InboundProcessingFailed({ message: "internal error while processing", retryable: true })
            ).pipe(
              Effect.tap(() =>
                Cause.hasFails(cause)
                  ? Effect.void
                  : Effect.logError("inbound processing crashed", { id: event.id }, cause)
              )
            )
          ),
          Effect.matchEffect({
            onSuccess: () =>
              Clock.currentTimeMillis.pipe(
                Effect.flatMap((nowMs) => store.markProcessed(event.id, isoOfMillis(nowMs)))
              ),
            onFailure: (failure) =>
              Clock.currentTimeMillis.pipe(
                Effect.flatMap((nowMs) =>
                  store.markFailed(event.id, failure.message, inboundRetryAt(policy, event.attempts, failure, nowMs))
                ),
                Effect.andThen(Effect.fail(failure))
              )
          }),
          Effect.catchTag("PersistenceUnavailable", () =>
            Effect.fail(new InboundProcessingFailed({ message: "the database is unavailable", retryable: true }))
          )
        )

      const runDue = Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const due = yield* store.claimDue({
          now: isoOfMillis(nowMs),
          leaseUntil: isoOfMillis(nowMs + policy.leaseMs),
          limit: policy.batchSize
        })
        yield* Effect.forEach(due, (event) => Effect.ignore(run(event)), { concurrency: 4, discard: true })
        return due.length
      }).pipe(
        Effect.catchTag("PersistenceUnavailable", () => Effect.succeed(0)),
        Effect.withSpan("InboundRunner.runDue")
      )

      return InboundRunner.of({ run, runDue, policy })
    })
  )
}

/** The background worker: a scoped fiber that drains due inbound events, polling when idle. */
export const InboundWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const runner = yield* InboundRunner
    const loop = runner.runDue.pipe(
      Effect.flatMap((n) => (n === 0 ? Effect.sleep(runner.policy.pollIntervalMs) : Effect.void)),
      Effect.forever
    )
    yield* Effect.forkScoped(loop)
  })
)

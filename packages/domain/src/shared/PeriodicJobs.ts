import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import type { PersistenceUnavailable } from "./Persistence.ts"
import { isoOfMillis } from "./Time.ts"

/**
 * The background jobs' fence (ADR 0050): asked inside a transaction about to do what two leaders of the jobs must not
 * both do, whether this process still leads them. Once it answers true, a process that becomes the leader later
 * starts its jobs only after that transaction ended, so the new leader sees what it wrote; false once another process
 * leads. A process alone on its database (the default) always leads.
 */
export const JobsFence = Context.Reference<{ readonly stillLeading: Effect.Effect<boolean, PersistenceUnavailable> }>(
  "@svc/domain/JobsFence",
  { defaultValue: () => ({ stillLeading: Effect.succeed(true) }) }
)

/**
 * A layer that runs `step` at once and then every `interval` for as long as it lives, each run in a span named `name`;
 * a failed run is logged as `${name} failed` and the next run still comes.
 */
export const periodicJob = <A, E, R>(name: string, step: Effect.Effect<A, E, R>, interval: Duration.Input) =>
  Layer.effectDiscard(
    step.pipe(
      Effect.withSpan(name),
      Effect.catch((error) => Effect.logWarning(`${name} failed`, error)),
      Effect.repeat(Schedule.spaced(interval)),
      Effect.forkScoped
    )
  )

/** The ISO instant `age` before now, by the effect clock: what a purge of rows older than `age` deletes below. */
export const cutoffBefore = (age: Duration.Input): Effect.Effect<string> =>
  Effect.map(Clock.currentTimeMillis, (now) => isoOfMillis(now - Duration.toMillis(Duration.fromInputUnsafe(age))))

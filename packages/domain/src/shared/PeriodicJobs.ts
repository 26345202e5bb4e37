import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { isoOfMillis } from "./Time.ts"

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

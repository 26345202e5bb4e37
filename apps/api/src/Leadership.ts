import { type HeldJobsLeaderLock, JobsFencePg, tryJobsLeaderLock } from "@svc/adapters-pg"
import { Context, Duration, Effect, Layer, Option, type Redacted, Ref, Stream, SubscriptionRef } from "effect"
import { jobsLeaderConfig } from "./Config.ts"

/** Whether this process leads the background jobs, and a way to run them only while it does. */
export interface JobsLeadershipShape {
  /** True while this process holds the leader lock (always, alone on its database). */
  readonly leading: Effect.Effect<boolean>
  /** Runs `jobs` each time this process becomes the leader, interrupting them as soon as it stops leading. */
  readonly whileLeading: <E, R>(jobs: Effect.Effect<never, E, R>) => Effect.Effect<never, E, R>
}

/** Alone on its database, a process leads from start to end: the default, and what tests in one process get. */
export const JobsLeadership = Context.Reference<JobsLeadershipShape>("@svc/api/JobsLeadership", {
  defaultValue: () => ({ leading: Effect.succeed(true), whileLeading: (jobs) => jobs })
})

/**
 * Checks the held lock every `check` (each check may take as long) and returns why it was lost: the connection
 * failed or did not answer in time (terminated backend, failover, partition), or the lock is no longer held.
 */
const untilLost = (lock: HeldJobsLeaderLock, check: Duration.Duration) =>
  Effect.gen(function* () {
    for (;;) {
      yield* Effect.sleep(check)
      const lost = yield* lock.held.pipe(
        Effect.map((held) => (held ? undefined : "the lock is no longer held")),
        Effect.catch((error) => Effect.succeed(`the lock connection failed: ${error.reason}`)),
        Effect.timeoutOrElse({
          duration: check,
          orElse: () => Effect.succeed(`the lock connection did not answer within ${Duration.format(check)}`)
        })
      )
      if (lost !== undefined) return lost
    }
  })

/**
 * Contends for the leader lock on `url` until interrupted: tries it every `retry` while another process holds it (or
 * the database cannot be reached), and while holding it checks it every `check`, stepping down at once (the jobs are
 * interrupted) when the check fails. Each change is logged. Beside the leadership: the lock connection's backend pid
 * while leading, for the jobs' fence.
 */
export const contendForJobs = (settings: {
  readonly url: Redacted.Redacted
  readonly retry: Duration.Duration
  readonly check: Duration.Duration
}) =>
  Effect.gen(function* () {
    const leading = yield* SubscriptionRef.make(false)
    const lockBackendPid = yield* Ref.make(Option.none<number>())
    const becomes = (value: boolean) =>
      SubscriptionRef.changes(leading).pipe(
        Stream.filter((current) => current === value),
        Stream.runHead,
        Effect.asVoid
      )
    const term = Effect.scoped(
      Effect.gen(function* () {
        const lock = yield* tryJobsLeaderLock(settings.url, { connectTimeout: settings.check })
        if (Option.isNone(lock)) return
        yield* Ref.set(lockBackendPid, Option.some(lock.value.backendPid))
        yield* SubscriptionRef.set(leading, true)
        yield* Effect.logInfo(
          `became the background-jobs leader (lock connection: backend pid ${lock.value.backendPid})`
        )
        const reason = yield* untilLost(lock.value, settings.check).pipe(
          Effect.ensuring(Effect.andThen(SubscriptionRef.set(leading, false), Ref.set(lockBackendPid, Option.none())))
        )
        yield* Effect.logWarning(`lost the background-jobs leadership: ${reason}; jobs stopped, contending again`)
      })
    ).pipe(
      Effect.catch((error) =>
        Effect.logWarning(`could not contend for the background-jobs leadership: ${error.reason}`)
      )
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(term, Effect.sleep(settings.retry))))
    const leadership: JobsLeadershipShape = {
      leading: SubscriptionRef.get(leading),
      whileLeading: (jobs) => Effect.forever(Effect.andThen(becomes(true), Effect.raceFirst(jobs, becomes(false))))
    }
    return { ...leadership, lockBackendPid: Ref.get(lockBackendPid) }
  })

/**
 * This process's part in the election (ADR 0050): never leads with `BACKGROUND_JOBS=off`, leads alone, or contends,
 * and then fences the payout worker's submissions (`JobsFence`) with its lock. Needs the pool's SqlClient.
 */
export const JobsLeadershipLive = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* jobsLeaderConfig
    switch (settings.mode) {
      case "off":
        return Layer.succeed(JobsLeadership, {
          leading: Effect.succeed(false),
          whileLeading: () => Effect.never
        })
      case "alone":
        return Layer.empty
      case "contend":
        return Layer.unwrap(
          Effect.map(
            contendForJobs({
              url: settings.url,
              retry: Duration.millis(settings.retryMs),
              check: Duration.millis(settings.checkMs)
            }),
            ({ lockBackendPid, ...leadership }) =>
              Layer.merge(Layer.succeed(JobsLeadership, leadership), JobsFencePg(lockBackendPid))
          )
        )
    }
  })
)

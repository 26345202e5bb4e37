import cluster, { type Worker } from "node:cluster"
import { Data, Effect, Option, Queue, Redacted } from "effect"
import { configuredCardNumberKey, configuredSessionSecret, databaseUrl, jobsLeaderConfig } from "./Config.ts"
import { integrationSecretsKey } from "./config/IntegrationsConfig.ts"
import { derivedIntegrationSecretsKey, integrationSecretsKeyWarning } from "./Integrations.ts"

/** Several processes cannot share the embedded database. */
class WebConcurrencyRefused extends Data.TaggedError("WebConcurrencyRefused")<{ readonly message: string }> {}

interface Exited {
  readonly worker: Worker
  readonly code: number
  readonly signal: string
}

/**
 * Forks a worker for `slot` with `env`. Every worker contends for the background-jobs leader lock like any other
 * process on the database (ADR 0050), so one set of jobs runs, and keeps running when its worker dies.
 */
const fork = (slots: Map<Worker, number>, slot: number, env: Record<string, string>) =>
  Effect.sync(() => slots.set(cluster.fork(env), slot))

/** A random secret of 244 bits, for a setting the operator left unset. */
const randomSecret = () => crypto.randomUUID() + crypto.randomUUID()

/**
 * What every worker must agree on, picked once by the primary for the settings left unset, each with one warning here
 * (the workers then find them set, and warn about none of them): without `SESSION_JWT_SECRET` each worker would pick
 * its own random secret (and with it the webhook signing key), so a session from one worker would fail on another;
 * without `CARD_NUMBER_KEY` a card number hashed by one worker would not match on another; without
 * `INTEGRATION_SECRETS_KEY` each derives the key from the session secret, which the primary does once for all.
 */
const sharedEnv = Effect.gen(function* () {
  const env: Record<string, string> = {}
  const sessionSecret = yield* configuredSessionSecret
  if (Option.isNone(sessionSecret)) {
    yield* Effect.logWarning(
      "SESSION_JWT_SECRET is unset: the workers share a random secret, so sessions end with the primary"
    )
    env.SESSION_JWT_SECRET = randomSecret()
  }
  if (Option.isNone(yield* configuredCardNumberKey)) {
    yield* Effect.logWarning(
      "CARD_NUMBER_KEY is unset: the workers share a random key, so card number hashes end with the primary"
    )
    env.CARD_NUMBER_KEY = randomSecret()
  }
  if (Option.isNone(yield* integrationSecretsKey)) {
    yield* Effect.logWarning(integrationSecretsKeyWarning)
    const secret = Option.match(sessionSecret, { onNone: () => env.SESSION_JWT_SECRET ?? "", onSome: Redacted.value })
    env.INTEGRATION_SECRETS_KEY = Redacted.value(derivedIntegrationSecretsKey(Redacted.make(secret)))
  }
  return env
})

/** Sends SIGTERM to every worker and waits until all have drained and exited. */
const stopAll = (slots: Map<Worker, number>) =>
  Effect.promise(() =>
    Promise.all(
      [...slots.keys()].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) return resolve()
            worker.once("exit", () => resolve())
            worker.process.kill("SIGTERM")
          })
      )
    )
  ).pipe(Effect.andThen(Effect.logInfo("all workers stopped")))

/**
 * The cluster primary: forks `workers` HTTP worker processes sharing the port (each waits for the database and
 * runs the migrations, which the migrator's table lock applies once), restarts a worker that exits (after a second),
 * and on interruption (SIGTERM, SIGINT) lets every worker drain, then returns. Refused without `DATABASE_URL`, and
 * with leader election settings every worker would refuse.
 */
export const supervise = (workers: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      if (Option.isNone(yield* databaseUrl)) {
        return yield* new WebConcurrencyRefused({
          message: `WEB_CONCURRENCY=${workers} needs DATABASE_URL: processes cannot share the embedded database`
        })
      }
      // A setting every worker would refuse stops the primary instead of a cycle of restarts.
      yield* jobsLeaderConfig
      const env = yield* sharedEnv
      const slots = new Map<Worker, number>()
      const exits = yield* Queue.unbounded<Exited>()
      const onExit = (worker: Worker, code: number, signal: string) =>
        Queue.offerUnsafe(exits, { worker, code, signal })
      yield* Effect.acquireRelease(
        Effect.sync(() => cluster.on("exit", onExit)),
        () => Effect.sync(() => cluster.off("exit", onExit))
      )
      yield* Effect.addFinalizer(() => stopAll(slots))
      for (let slot = 1; slot <= workers; slot++) yield* fork(slots, slot, env)
      yield* Effect.logInfo(
        `primary (pid ${process.pid}): ${workers} HTTP workers; the background-jobs leader among them runs the jobs`
      )
      return yield* Effect.forever(
        Effect.gen(function* () {
          const { worker, code, signal } = yield* Queue.take(exits)
          const slot = slots.get(worker)
          slots.delete(worker)
          if (slot === undefined) return
          yield* Effect.logWarning(
            `worker ${slot} (pid ${worker.process.pid}) exited (${signal ?? code}); restarting it`
          )
          yield* Effect.sleep("1 second")
          yield* fork(slots, slot, env)
        })
      )
    })
  )

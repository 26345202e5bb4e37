import {
  DashboardSessionsPurgeJob,
  IdempotencyPurgeJob,
  InstallNoncesPurgeJob,
  OAuthPurgeJob,
  RateLimitPruneJob,
  WebhookPurgeJob
} from "@svc/domain"
import { Context, Duration, Effect, Layer } from "effect"
import { backgroundJobsOn, retentionConfig, v1ProtectionConfig } from "./Config.ts"

/** What the background jobs wait for before they start: nothing, unless the server waits for its database. */
export const BackgroundJobsGate = Context.Reference<Effect.Effect<void>>("@svc/api/BackgroundJobsGate", {
  defaultValue: () => Effect.void
})

/**
 * Jobs that change shared state on a schedule (approval expiry, purges, webhook workers), started once the
 * `BackgroundJobsGate` opens: on unless `BACKGROUND_JOBS=off`, which the cluster primary sets on all workers but the
 * first, so one set runs.
 */
export const backgroundJobs = <A, E, R>(jobs: Layer.Layer<A, E, R>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const on = yield* backgroundJobsOn
      const gate = yield* BackgroundJobsGate
      return on
        ? Layer.effectDiscard(
            gate.pipe(
              Effect.andThen(Layer.build(jobs)),
              Effect.andThen(Effect.never),
              Effect.catchCause((cause) => Effect.logError("background jobs could not start", cause)),
              Effect.forkScoped
            )
          )
        : Layer.empty
    })
  )

/** How often idle rate-limit buckets are forgotten: with the idempotency purge, at least every five minutes. */
export const rateLimitPruneInterval = Effect.map(v1ProtectionConfig, ({ idempotencyPurgeSeconds }) =>
  Duration.seconds(Math.min(idempotencyPurgeSeconds, 300))
)

/**
 * The purges: idempotency responses after `IDEMPOTENCY_TTL_HOURS` (default 24) every
 * `IDEMPOTENCY_PURGE_INTERVAL_SECONDS` (default 3600), with the idle rate-limit buckets; expired OAuth codes and
 * tokens, and ended sign-in links and dashboard sessions, `OAUTH_PURGE_GRACE_HOURS` (default 24) after they end,
 * finished webhook deliveries after `WEBHOOK_DELIVERY_RETENTION_DAYS` (default 30) and then the delivered events they
 * leave, and the used install nonces once their states have expired, every `RETENTION_PURGE_INTERVAL_SECONDS`
 * (default 3600).
 */
export const PurgeJobs = Layer.unwrap(
  Effect.gen(function* () {
    const { idempotencyTtlHours, idempotencyPurgeSeconds } = yield* v1ProtectionConfig
    const pruneInterval = yield* rateLimitPruneInterval
    const { graceHours, webhookRetentionDays, intervalSeconds } = yield* retentionConfig
    const interval = Duration.seconds(intervalSeconds)
    return Layer.merge(
      backgroundJobs(
        Layer.merge(
          IdempotencyPurgeJob({
            ttl: Duration.hours(idempotencyTtlHours),
            interval: Duration.seconds(idempotencyPurgeSeconds)
          }),
          RateLimitPruneJob(pruneInterval)
        )
      ),
      backgroundJobs(
        Layer.mergeAll(
          OAuthPurgeJob({ grace: Duration.hours(graceHours), interval }),
          DashboardSessionsPurgeJob({ grace: Duration.hours(graceHours), interval }),
          WebhookPurgeJob({ retention: Duration.days(webhookRetentionDays), interval }),
          InstallNoncesPurgeJob(interval)
        )
      )
    )
  })
)

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
import { JobsLeadership } from "./Leadership.ts"

/** What the background jobs wait for before they start: nothing, unless the server waits for its database. */
export const BackgroundJobsGate = Context.Reference<Effect.Effect<void>>("@svc/api/BackgroundJobsGate", {
  defaultValue: () => Effect.void
})

/**
 * Jobs that change shared state on a schedule (approval expiry, purges, webhook workers), started once the
 * `BackgroundJobsGate` opens and while this process leads the background jobs (`JobsLeadership`, ADR 0050): built
 * afresh each time it becomes the leader and interrupted as soon as it stops. Never with `BACKGROUND_JOBS=off`. A set
 * that fails to start is logged and waits for the next term.
 */
export const backgroundJobs = <A, E, R>(jobs: Layer.Layer<A, E, R>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const on = yield* backgroundJobsOn
      const gate = yield* BackgroundJobsGate
      const leadership = yield* JobsLeadership
      const term = Effect.scoped(Effect.andThen(Layer.build(jobs), Effect.never)).pipe(
        Effect.catchCause((cause) =>
          Effect.andThen(Effect.logError("background jobs could not start", cause), Effect.never)
        )
      )
      return on
        ? Layer.effectDiscard(Effect.forkScoped(Effect.andThen(gate, leadership.whileLeading(term))))
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

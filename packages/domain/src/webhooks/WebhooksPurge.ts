import type { Duration } from "effect"
import { Effect } from "effect"
import { cutoffBefore, periodicJob } from "../shared/index.ts"
import { WebhookDeliveriesRepo } from "./WebhooksRepo.ts"

/**
 * Deletes finished deliveries older than `retention`, by the effect clock, then the outbox events fanned out of which
 * no delivery is left (an event lives as long as one of its deliveries); returns how many of each.
 */
export const purgeWebhookHistory = (retention: Duration.Input) =>
  Effect.gen(function* () {
    const repo = yield* WebhookDeliveriesRepo
    const deliveries = yield* repo.purgeFinishedBefore(yield* cutoffBefore(retention))
    const events = yield* repo.purgeDispatchedEvents
    return { deliveries, events }
  })

/** A background job that purges old webhook deliveries and delivered events every `interval` for as long as the layer lives. */
export const WebhookPurgeJob = (options: { readonly retention: Duration.Input; readonly interval: Duration.Input }) =>
  periodicJob("webhook purge", purgeWebhookHistory(options.retention), options.interval)

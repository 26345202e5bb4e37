import { DeliveryConfig, WebhookDispatcher } from "@svc/domain"
import { Effect, Layer } from "effect"

/** One step of the delivery worker: fan new outbox events out into deliveries, then send what is due now; returns how much work it found. */
export const deliverOnce = Effect.gen(function* () {
  const dispatcher = yield* WebhookDispatcher
  const fanned = yield* dispatcher.fanOut
  const sent = yield* dispatcher.deliverDue
  return fanned + sent
})

/** The background delivery worker: a scoped fiber repeating `deliverOnce`, pausing for the poll interval when idle or failed. */
export const DeliveryWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const dispatcher = yield* WebhookDispatcher
    const policy = yield* DeliveryConfig
    const loop = deliverOnce.pipe(
      Effect.provideService(WebhookDispatcher, dispatcher),
      Effect.catchCause((cause) => Effect.logError("webhook delivery pass failed", cause).pipe(Effect.as(0))),
      Effect.flatMap((n) => (n === 0 ? Effect.sleep(policy.pollIntervalMs) : Effect.void)),
      Effect.forever
    )
    yield* Effect.forkScoped(loop)
  })
)

import { DeliveryConfig, WebhookDispatcher } from "@svc/domain"
import { Effect, Layer } from "effect"

/** One pass: fan new outbox events out into deliveries, then send what is due; returns how much work it found. */
export const deliverOnce = Effect.gen(function* () {
  const dispatcher = yield* WebhookDispatcher
  const fanned = yield* dispatcher.fanOut
  const sent = yield* dispatcher.deliverDue
  return fanned + sent
}).pipe(Effect.catchCause((cause) => Effect.logError("webhook delivery pass failed", cause).pipe(Effect.as(0))))

/** The background delivery worker: a scoped fiber polling the outbox and the due deliveries. */
export const DeliveryWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const dispatcher = yield* WebhookDispatcher
    const policy = yield* DeliveryConfig
    const loop = deliverOnce.pipe(
      Effect.provideService(WebhookDispatcher, dispatcher),
      Effect.flatMap((n) => (n === 0 ? Effect.sleep(policy.pollIntervalMs) : Effect.void)),
      Effect.forever
    )
    yield* Effect.forkScoped(loop)
  })
)

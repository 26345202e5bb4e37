import { InboundCommands, InboundReview, WebhookDispatcher, WebhookEndpoints } from "@svc/domain"
import { Effect, Layer } from "effect"
import {
  AuthorizationStream,
  InboundIntake,
  InboundProcessor,
  InboundRunner,
  InboundSecrets,
  InboundWorker,
  InboundWebhookRoutes as Routes
} from "./inbound/index.ts"
import { WebhooksConfigLive, WebhooksSettings } from "./shared/index.ts"
import { DeliveryWorker, StandardWebhooksSender } from "./webhooks/index.ts"

export * from "./inbound/index.ts"
export * from "./shared/index.ts"
export * from "./webhooks/index.ts"

/** Inbound processing over the ports and the Ledger: the runner, the processor, the domain's inbound commands and the teams' review of stored events. */
export const InboundRunnerLive = InboundRunner.layer.pipe(
  Layer.provideMerge(InboundProcessor.layer),
  Layer.provideMerge(Layer.merge(InboundCommands.layer, InboundReview.layer))
)

/** Outbound webhook services over the ports: endpoints and the dispatcher sending with Standard Webhooks configured by `WebhooksSettings`. */
export const OutboundWebhooksLive = WebhookDispatcher.layer.pipe(
  Layer.provideMerge(WebhookEndpoints.layer),
  Layer.provideMerge(StandardWebhooksSender),
  Layer.provideMerge(WebhooksConfigLive)
)

/** Webhook services over the ports and the Ledger: the outbound services and inbound processing configured by `WebhooksSettings`. */
export const WebhookServicesLive = Layer.mergeAll(
  OutboundWebhooksLive,
  InboundRunnerLive.pipe(Layer.provideMerge(WebhooksConfigLive))
)

/** The raw inbound webhook routes, with their secrets from `WebhooksSettings`; the auth-stream needs `CardAuthorizations`. */
export const InboundWebhookRoutes = Routes.pipe(
  Layer.provide([InboundIntake.layer, AuthorizationStream.layer]),
  Layer.provide(InboundSecrets.layer)
)

/** The inbound and outbound workers as scoped fibers, unless `WebhooksSettings.workers` leaves them out (an API-only process). */
export const WebhookWorkersLive = Layer.unwrap(
  Effect.gen(function* () {
    const { workers } = yield* WebhooksSettings
    return workers ? Layer.mergeAll(InboundWorker, DeliveryWorker) : Layer.empty
  })
)

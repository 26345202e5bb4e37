import { WebhookDispatcher, WebhookEndpoints } from "@svc/domain"
import { Config, Effect, Layer } from "effect"
import { InboundIntake } from "./inbound/InboundIntake.ts"
import { InboundProcessor } from "./inbound/InboundProcessor.ts"
import { InboundWebhookRoutes as Routes } from "./inbound/InboundRoutes.ts"
import { InboundRunner, InboundWorker } from "./inbound/InboundRunner.ts"
import { InboundSecrets } from "./inbound/InboundSecrets.ts"
import { WebhooksConfigLive } from "./shared/WebhooksConfig.ts"
import { DeliveryWorker } from "./webhooks/DeliveryWorker.ts"
import { StandardWebhooksSender } from "./webhooks/StandardWebhooksSender.ts"

export { InboundIntake, MAX_INBOUND_BODY_BYTES } from "./inbound/InboundIntake.ts"
export { InboundProcessor, teamOfInboxAddress } from "./inbound/InboundProcessor.ts"
export { InboundRunner, InboundWorker } from "./inbound/InboundRunner.ts"
export { InboundSecrets } from "./inbound/InboundSecrets.ts"
export * from "./inbound/Payloads.ts"
export * from "./inbound/verify/index.ts"
export { WebhooksConfigLive } from "./shared/WebhooksConfig.ts"
export { DeliveryWorker, deliverOnce } from "./webhooks/DeliveryWorker.ts"
export {
  retryAfterSeconds,
  StandardWebhooksSender,
  standardWebhooksSignature
} from "./webhooks/StandardWebhooksSender.ts"

/** Webhook services over the ports and the Ledger: endpoints, the outbound dispatcher, inbound processing; configured from the environment. */
export const WebhookServicesLive = Layer.mergeAll(WebhookDispatcher.layer, InboundRunner.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(WebhookEndpoints.layer, InboundProcessor.layer)),
  Layer.provideMerge(StandardWebhooksSender),
  Layer.provideMerge(WebhooksConfigLive)
)

/** The raw inbound webhook routes, with their secrets read from the environment. */
export const InboundWebhookRoutes = Routes.pipe(Layer.provide(InboundIntake.layer), Layer.provide(InboundSecrets.layer))

/** The inbound and outbound workers as scoped fibers; `WEBHOOK_WORKERS=off` leaves them out (e.g. an API-only process). */
export const WebhookWorkersLive = Layer.unwrap(
  Effect.gen(function* () {
    const setting = yield* Config.String("WEBHOOK_WORKERS").pipe(Config.withDefault("on"))
    return setting.toLowerCase() === "off" ? Layer.empty : Layer.mergeAll(InboundWorker, DeliveryWorker)
  })
)

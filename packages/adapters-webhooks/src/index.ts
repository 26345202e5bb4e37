import { WebhookDispatcher, WebhookEndpoints } from "@svc/domain"
import { Config, Effect, Layer } from "effect"
import { InboundIntake } from "./intake/InboundIntake.ts"
import { InboundProcessor } from "./intake/InboundProcessor.ts"
import { InboundWebhookRoutes as Routes } from "./intake/InboundRoutes.ts"
import { InboundRunner, InboundWorker } from "./intake/InboundRunner.ts"
import { InboundSecrets } from "./intake/InboundSecrets.ts"
import { DeliveryWorker } from "./outbound/DeliveryWorker.ts"
import { StandardWebhooksSender } from "./outbound/StandardWebhooksSender.ts"
import { WebhooksConfigLive } from "./WebhooksConfig.ts"

export { InboundIntake, MAX_INBOUND_BODY_BYTES } from "./intake/InboundIntake.ts"
export { InboundProcessor, teamOfInboxAddress } from "./intake/InboundProcessor.ts"
export { InboundRunner, InboundWorker } from "./intake/InboundRunner.ts"
export { InboundSecrets } from "./intake/InboundSecrets.ts"
export * from "./intake/Payloads.ts"
export { DeliveryWorker, deliverOnce } from "./outbound/DeliveryWorker.ts"
export {
  retryAfterSeconds,
  StandardWebhooksSender,
  standardWebhooksSignature
} from "./outbound/StandardWebhooksSender.ts"
export * from "./verify/index.ts"
export { WebhooksConfigLive } from "./WebhooksConfig.ts"

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

import { WebhooksSettings } from "@svc/adapters-webhooks"
import { WebhookDestinations } from "@svc/domain"
import { Effect, Layer } from "effect"
import { allowPrivateDestinationsConfig, webhooksConfig } from "./config/WebhooksConfig.ts"

/**
 * The webhooks adapter's settings (retries, deliveries, destinations, secrets, workers) from the `WEBHOOK_*` variables.
 * A test building its own runner beside an app takes `Layer.fresh` of it, so the app still reads its own environment.
 */
export const webhooksSettings = Layer.effect(WebhooksSettings, webhooksConfig)

/** Where outbound POSTs may go (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`), for the chat response URLs outside the adapter. */
export const webhookDestinations = Layer.effect(
  WebhookDestinations,
  Effect.map(allowPrivateDestinationsConfig, (allowPrivateDestinations) => ({ allowPrivateDestinations }))
)

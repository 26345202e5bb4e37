import { WebhooksSettings } from "@svc/adapters-webhooks"
import { Layer } from "effect"
import { webhooksConfig } from "./Config.ts"

/** The webhooks adapter's settings (retries, deliveries, destinations, secrets, workers) from the `WEBHOOK_*` variables. */
export const webhooksSettings = Layer.effect(WebhooksSettings, webhooksConfig)

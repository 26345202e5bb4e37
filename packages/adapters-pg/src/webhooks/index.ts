import { Layer } from "effect"
import { WebhookDeliveriesRepoPg } from "./WebhookDeliveriesRepoPg.ts"
import { WebhookEndpointsRepoPg } from "./WebhookEndpointsRepoPg.ts"

export * from "./WebhookDeliveriesRepoPg.ts"
export * from "./WebhookEndpointsRepoPg.ts"

/** The webhooks context's ports on Postgres. */
export const WebhooksPortsPg = Layer.mergeAll(WebhookDeliveriesRepoPg, WebhookEndpointsRepoPg)

import { Layer } from "effect"
import { EventOutboxMemory } from "../platform/index.ts"
import { WebhookDeliveriesRepoMemory } from "./WebhookDeliveriesRepoMemory.ts"
import { WebhookEndpointsRepoMemory } from "./WebhookEndpointsRepoMemory.ts"

export * from "./WebhookDeliveriesRepoMemory.ts"
export * from "./WebhookEndpointsRepoMemory.ts"

/** The webhooks context's ports on the in-memory store. */
export const WebhooksPortsMemory = Layer.mergeAll(
  WebhookDeliveriesRepoMemory.pipe(Layer.provide(EventOutboxMemory)),
  WebhookEndpointsRepoMemory
)

export * from "./Webhooks.ts"
export * from "./WebhooksDelivery.ts"
export * from "./WebhooksPurge.ts"

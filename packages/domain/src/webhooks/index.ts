export * from "./Webhooks.ts"
export * from "./WebhooksDelivery.ts"

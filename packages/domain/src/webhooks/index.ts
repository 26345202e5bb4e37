export * from "./model.ts"
export * from "./Webhooks.ts"
export * from "./WebhooksDelivery.ts"
export * from "./WebhooksRepo.ts"

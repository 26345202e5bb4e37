export * from "./DeliveryWorker.ts"
export * from "./DestinationPost.ts"
export * from "./StandardWebhooksSender.ts"

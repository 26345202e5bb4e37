export * from "./DeliveryWorker.ts"
export * from "./StandardWebhooksSender.ts"

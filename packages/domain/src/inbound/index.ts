export * from "./InboundEvents.ts"
export * from "./InboundWebhooks.ts"

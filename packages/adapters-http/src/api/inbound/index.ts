export * from "./InboundEventsApi.ts"
export * from "./InboundWebhooksApi.ts"

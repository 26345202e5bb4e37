export * from "./InboundWebhooksApi.ts"

export * from "./WebhookEndpointsApi.ts"

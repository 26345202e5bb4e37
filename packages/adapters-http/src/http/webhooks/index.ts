export * from "./WebhookEndpointsHttp.ts"

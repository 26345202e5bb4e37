export * from "./WebhooksConfig.ts"

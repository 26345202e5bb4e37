/** The webhooks context's shapes and pure rules: no services, so clients may import them. */
export * from "./PublicAddress.ts"
export * from "./WebhookEndpoint.ts"
export * from "./WebhookEvent.ts"
export * from "./WebhookRules.ts"

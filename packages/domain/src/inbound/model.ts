/** The inbound context's shapes and pure rules: no services, so clients may import them. */
export * from "./InboundEvent.ts"
export * from "./InboundWebhooks.ts"

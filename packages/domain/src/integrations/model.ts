/** The integrations context's shapes: no services, so clients may import them. */
export * from "./ChatIntegration.ts"
export * from "./MailInboxAccount.ts"

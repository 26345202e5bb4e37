/** The integrations context's shapes: no services, so clients may import them. */
export * from "./ChatApprovalEvents.ts"
export * from "./ChatApprovalMessage.ts"
export * from "./ChatIntegration.ts"
export * from "./MailInboxAccount.ts"

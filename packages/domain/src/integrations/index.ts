export * from "./MailConnection.ts"
export * from "./MailErrors.ts"
export * from "./MailPorts.ts"
export * from "./model.ts"

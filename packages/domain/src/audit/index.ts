export * from "./AuditLog.ts"
export * from "./model.ts"

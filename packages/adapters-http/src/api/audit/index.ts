export * from "./AuditApi.ts"

export * from "./AuditHttp.ts"

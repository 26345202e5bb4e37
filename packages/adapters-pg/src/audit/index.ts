import { AuditLogRepoPg } from "./AuditLogRepoPg.ts"

export * from "./AuditLogRepoPg.ts"

/** The audit context's ports on Postgres. */
export const AuditPortsPg = AuditLogRepoPg

import { AuditLogRepoMemory } from "./AuditLogRepoMemory.ts"

export * from "./AuditLogRepoMemory.ts"

/** The audit context's ports on the in-memory store. */
export const AuditPortsMemory = AuditLogRepoMemory

import { ChatIntegrationsRepoMemory } from "./ChatIntegrationsRepoMemory.ts"

export * from "./ChatIntegrationsRepoMemory.ts"

/** The integrations context's storage ports on the in-memory store. */
export const IntegrationsPortsMemory = ChatIntegrationsRepoMemory

import { Layer } from "effect"
import { ChatIntegrationsRepoMemory } from "./ChatIntegrationsRepoMemory.ts"
import { MailInboxAccountsRepoMemory } from "./MailInboxAccountsRepoMemory.ts"

export * from "./ChatIntegrationsRepoMemory.ts"
export * from "./MailInboxAccountsRepoMemory.ts"

/** The integrations context's storage ports on the in-memory store (the platforms and providers are not storage). */
export const IntegrationsPortsMemory = Layer.mergeAll(ChatIntegrationsRepoMemory, MailInboxAccountsRepoMemory)

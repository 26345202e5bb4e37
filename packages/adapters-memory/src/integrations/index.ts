import { Layer } from "effect"
import { MailInboxAccountsRepoMemory } from "./MailInboxAccountsRepoMemory.ts"

export * from "./MailInboxAccountsRepoMemory.ts"

/** The integrations context's storage ports on the in-memory store (the providers are not storage). */
export const IntegrationsPortsMemory = Layer.mergeAll(MailInboxAccountsRepoMemory)

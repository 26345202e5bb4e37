import { Layer } from "effect"
import { ChatIntegrationsRepoMemory } from "./ChatIntegrationsRepoMemory.ts"
import { ChatMessagesRepoMemory } from "./ChatMessagesRepoMemory.ts"
import { ChatUserLinksRepoMemory } from "./ChatUserLinksRepoMemory.ts"
import { InstallNoncesRepoMemory } from "./InstallNoncesRepoMemory.ts"
import { MailInboxAccountsRepoMemory } from "./MailInboxAccountsRepoMemory.ts"

export * from "./ChatIntegrationsRepoMemory.ts"
export * from "./ChatMessagesRepoMemory.ts"
export * from "./ChatUserLinksRepoMemory.ts"
export * from "./InstallNoncesRepoMemory.ts"
export * from "./MailInboxAccountsRepoMemory.ts"

/** The integrations context's storage ports on the in-memory store (the platforms and providers are not storage). */
export const IntegrationsPortsMemory = Layer.mergeAll(
  ChatIntegrationsRepoMemory,
  ChatMessagesRepoMemory,
  ChatUserLinksRepoMemory,
  InstallNoncesRepoMemory,
  MailInboxAccountsRepoMemory
)

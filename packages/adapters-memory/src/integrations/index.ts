import { Layer } from "effect"
import { ChatIntegrationsRepoMemory } from "./ChatIntegrationsRepoMemory.ts"
import { ChatMessagesRepoMemory } from "./ChatMessagesRepoMemory.ts"
import { ChatUserLinksRepoMemory } from "./ChatUserLinksRepoMemory.ts"

export * from "./ChatIntegrationsRepoMemory.ts"
export * from "./ChatMessagesRepoMemory.ts"
export * from "./ChatUserLinksRepoMemory.ts"

/** The integrations context's storage ports on the in-memory store. */
export const IntegrationsPortsMemory = Layer.mergeAll(
  ChatIntegrationsRepoMemory,
  ChatMessagesRepoMemory,
  ChatUserLinksRepoMemory
)

import { Layer } from "effect"
import { AgentKeysRepoMemory } from "./AgentKeysRepoMemory.ts"
import { ApiKeysRepoMemory } from "./ApiKeysRepoMemory.ts"

export * from "./AgentKeysRepoMemory.ts"
export * from "./ApiKeysRepoMemory.ts"

/** The access context's ports on the in-memory store. */
export const AccessPortsMemory = Layer.mergeAll(AgentKeysRepoMemory, ApiKeysRepoMemory)

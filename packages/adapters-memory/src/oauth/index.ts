import { Layer } from "effect"
import { OAuthRepoMemory } from "./OAuthRepoMemory.ts"

export * from "./OAuthRepoMemory.ts"

/** The oauth context's ports on the in-memory store. */
export const OAuthPortsMemory = Layer.mergeAll(OAuthRepoMemory)

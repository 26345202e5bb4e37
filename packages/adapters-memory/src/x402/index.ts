import { Layer } from "effect"
import { X402PaymentsRepoMemory } from "./X402PaymentsRepoMemory.ts"
import { X402WalletsRepoMemory } from "./X402WalletsRepoMemory.ts"

export * from "./X402PaymentsRepoMemory.ts"
export * from "./X402SettlementsMemory.ts"
export * from "./X402WalletsRepoMemory.ts"

/** The x402 context's storage ports on the in-memory store (the signer and the chain are not storage). */
export const X402PortsMemory = Layer.merge(X402PaymentsRepoMemory, X402WalletsRepoMemory)

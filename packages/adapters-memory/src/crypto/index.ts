import { Layer } from "effect"
import { CryptoDestinationsRepoMemory } from "./CryptoDestinationsRepoMemory.ts"
import { CryptoQuotesRepoMemory } from "./CryptoQuotesRepoMemory.ts"

export * from "./CryptoDestinationsRepoMemory.ts"
export * from "./CryptoQuotesRepoMemory.ts"

/** The crypto context's storage ports on the in-memory store (the payout rail is not storage). */
export const CryptoPortsMemory = Layer.mergeAll(CryptoDestinationsRepoMemory, CryptoQuotesRepoMemory)

import { Layer } from "effect"
import { CryptoDestinationsRepoMemory } from "./CryptoDestinationsRepoMemory.ts"
import { CryptoPayoutsRepoMemory } from "./CryptoPayoutsRepoMemory.ts"
import { CryptoQuotesRepoMemory } from "./CryptoQuotesRepoMemory.ts"

export * from "./CryptoDestinationsRepoMemory.ts"
export * from "./CryptoPayoutsRepoMemory.ts"
export * from "./CryptoQuotesRepoMemory.ts"
export * from "./SimulatedRail.ts"

/** The crypto context's storage ports on the in-memory store (the payout rail is not storage). */
export const CryptoPortsMemory = Layer.mergeAll(
  CryptoDestinationsRepoMemory,
  CryptoPayoutsRepoMemory,
  CryptoQuotesRepoMemory
)

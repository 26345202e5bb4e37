import { Layer } from "effect"
import { CardAuthorizationsRepoMemory } from "./CardAuthorizationsRepoMemory.ts"
import { CardsRepoMemory } from "./CardsRepoMemory.ts"
import { CheckoutIntentsRepoMemory } from "./CheckoutIntentsRepoMemory.ts"

export * from "./CardAuthorizationsRepoMemory.ts"
export * from "./CardsRepoMemory.ts"
export * from "./CheckoutIntentsRepoMemory.ts"
export * from "./SimulatedCardIssuer.ts"

/** The checkout context's ports on the in-memory store (the card issuer is not storage: `SimulatedCardIssuer`). */
export const CheckoutPortsMemory = Layer.mergeAll(
  CheckoutIntentsRepoMemory,
  CardsRepoMemory,
  CardAuthorizationsRepoMemory
)

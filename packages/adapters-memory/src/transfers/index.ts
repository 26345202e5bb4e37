import { Layer } from "effect"
import { PaymentCodesRepoMemory } from "./PaymentCodesRepoMemory.ts"
import { TransfersRepoMemory } from "./TransfersRepoMemory.ts"

export * from "./PaymentCodesRepoMemory.ts"
export * from "./TransfersRepoMemory.ts"

/** The transfers context's ports on the in-memory store. */
export const TransfersPortsMemory = Layer.mergeAll(PaymentCodesRepoMemory, TransfersRepoMemory)

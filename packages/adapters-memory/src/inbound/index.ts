import { Layer } from "effect"
import { InboundEventStoreMemory } from "./InboundEventStoreMemory.ts"

export * from "./InboundEventStoreMemory.ts"

/** The inbound context's ports on the in-memory store. */
export const InboundPortsMemory = Layer.mergeAll(InboundEventStoreMemory)

import { Layer } from "effect"
import { InboundEventStorePg } from "./InboundEventStorePg.ts"

export * from "./InboundEventStorePg.ts"

/** The inbound context's ports on Postgres. */
export const InboundPortsPg = Layer.mergeAll(InboundEventStorePg)

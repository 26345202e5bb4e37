import { Layer } from "effect"
import { InboxItemsRepoPg } from "./InboxItemsRepoPg.ts"

export * from "./InboxItemsRepoPg.ts"

/** The documents context's ports on Postgres. */
export const DocumentsPortsPg = Layer.mergeAll(InboxItemsRepoPg)

import { Layer } from "effect"
import { DocumentsRepoPg } from "./DocumentsRepoPg.ts"
import { InboxItemsRepoPg } from "./InboxItemsRepoPg.ts"

export * from "./DocumentsRepoPg.ts"
export * from "./InboxItemsRepoPg.ts"

/** The documents context's ports on Postgres. */
export const DocumentsPortsPg = Layer.mergeAll(InboxItemsRepoPg, DocumentsRepoPg)

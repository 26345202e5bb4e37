import { Layer } from "effect"
import { TagsRepoPg } from "./TagsRepoPg.ts"

export * from "./TagsRepoPg.ts"

/** The tags context's ports on Postgres. */
export const TagsPortsPg = Layer.mergeAll(TagsRepoPg)

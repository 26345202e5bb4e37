import { Layer } from "effect"
import { OAuthRepoPg } from "./OAuthRepoPg.ts"

export * from "./OAuthRepoPg.ts"

/** The oauth context's ports on Postgres. */
export const OAuthPortsPg = Layer.mergeAll(OAuthRepoPg)

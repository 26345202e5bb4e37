import { Layer } from "effect"
import { AgentKeysRepoPg } from "./AgentKeysRepoPg.ts"
import { ApiKeysRepoPg } from "./ApiKeysRepoPg.ts"

export * from "./AgentKeysRepoPg.ts"
export * from "./ApiKeysRepoPg.ts"

/** The access context's ports on Postgres. */
export const AccessPortsPg = Layer.mergeAll(AgentKeysRepoPg, ApiKeysRepoPg)

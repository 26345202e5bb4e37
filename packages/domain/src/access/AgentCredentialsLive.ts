import { Effect, Layer } from "effect"
import { AgentKeys } from "./AgentKeys.ts"
import { AgentCredentials } from "./Credentials.ts"

/** The AgentCredentials port answered by agent keys alone: the spending keys and team API keys /v1 takes. */
export const AgentCredentialsLive = Layer.effect(
  AgentCredentials,
  Effect.map(AgentKeys, (keys) => AgentCredentials.of({ authenticate: keys.authenticate }))
)

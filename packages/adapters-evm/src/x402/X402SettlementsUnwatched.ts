import { type AuthorizationState, X402Settlements } from "@svc/domain"
import { Effect, Layer } from "effect"

/** What is known of an authorization on a chain the service has no RPC endpoint for: nothing, so `unknown`. */
export const unwatchedState: Effect.Effect<AuthorizationState> = Effect.succeed({ _tag: "unknown" })

/**
 * Settlements when no chain has an RPC endpoint: every authorization's state is unknown. Its module imports no EVM
 * client, so a process that watches no chain never loads viem (ADR 0063).
 */
export const X402SettlementsUnwatched = Layer.succeed(
  X402Settlements,
  X402Settlements.of({ state: () => unwatchedState })
)

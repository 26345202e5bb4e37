import { type AuthorizationState, X402Settlements } from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import { createPublicClient, getAddress, type Hex, http } from "viem"
import { unwatchedState } from "./X402SettlementsUnwatched.ts"

/** EIP-3009's view of whether an authorization was used (or canceled). */
const AUTHORIZATION_STATE_ABI = [
  {
    type: "function",
    name: "authorizationState",
    stateMutability: "view",
    inputs: [
      { name: "authorizer", type: "address" },
      { name: "nonce", type: "bytes32" }
    ],
    outputs: [{ name: "", type: "bool" }]
  }
] as const

/**
 * Settlements seen by asking each token contract (`authorizationState`) over the RPC endpoint of its chain; a chain
 * without an endpoint, or an endpoint that does not answer, is `unknown`. The using transaction is not known this way.
 */
export const X402SettlementsEvm = (rpcUrls: ReadonlyMap<number, Redacted.Redacted<string>>, timeoutMs: number) =>
  Layer.sync(X402Settlements, () => {
    const clients = new Map(
      Array.from(rpcUrls, ([chainId, url]) => [
        chainId,
        createPublicClient({ transport: http(Redacted.value(url), { timeout: timeoutMs, retryCount: 0 }) })
      ])
    )
    return X402Settlements.of({
      state: ({ chainId, asset, authorizer, nonce }) => {
        const client = clients.get(chainId)
        if (client === undefined) return unwatchedState
        return Effect.tryPromise(() =>
          client.readContract({
            address: getAddress(asset),
            abi: AUTHORIZATION_STATE_ABI,
            functionName: "authorizationState",
            args: [getAddress(authorizer), nonce as Hex]
          })
        ).pipe(
          Effect.map((used): AuthorizationState => (used ? { _tag: "used", txHash: null } : { _tag: "unused" })),
          // The error may quote the endpoint, which may hold an API key: only the chain is named.
          Effect.catch(() =>
            Effect.as(Effect.logWarning(`x402 settlement watch: chain ${chainId} did not answer`), {
              _tag: "unknown"
            } as const)
          )
        )
      }
    })
  })

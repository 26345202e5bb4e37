import { type AuthorizationState, X402Settlements } from "@svc/domain"
import { Context, Effect, HashMap, Layer, Ref } from "effect"

/** The authorizations a simulated chain has seen used, by `chainId:asset:authorizer:nonce`, with the using transaction. */
export class X402ChainMemory extends Context.Service<
  X402ChainMemory,
  {
    /** Marks an authorization used on the simulated chain, as a facilitator's settlement would. */
    readonly use: (
      authorization: {
        readonly chainId: number
        readonly asset: string
        readonly authorizer: string
        readonly nonce: string
      },
      txHash: string
    ) => Effect.Effect<void>
  }
>()("@svc/adapters-memory/X402ChainMemory") {}

const keyOf = (a: {
  readonly chainId: number
  readonly asset: string
  readonly authorizer: string
  readonly nonce: string
}) => `${a.chainId}:${a.asset.toLowerCase()}:${a.authorizer.toLowerCase()}:${a.nonce.toLowerCase()}`

/**
 * A simulated chain for settlements: every authorization is unused until `X402ChainMemory.use` marks it; the layer
 * provides both the port and that handle.
 */
export const X402SettlementsMemory = Layer.effectContext(
  Effect.gen(function* () {
    const used = yield* Ref.make(HashMap.empty<string, string>())
    const settlements = X402Settlements.of({
      state: (a) =>
        Effect.map(Ref.get(used), (map): AuthorizationState => {
          const txHash = HashMap.get(map, keyOf(a))
          return txHash._tag === "Some" ? { _tag: "used", txHash: txHash.value } : { _tag: "unused" }
        })
    })
    const chain = X402ChainMemory.of({ use: (a, txHash) => Ref.update(used, HashMap.set(keyOf(a), txHash)) })
    return Context.make(X402Settlements, settlements).pipe(Context.add(X402ChainMemory, chain))
  })
)

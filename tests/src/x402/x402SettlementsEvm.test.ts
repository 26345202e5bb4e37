import { assert, layer } from "@effect/vitest"
import { X402SettlementsEvm } from "@svc/adapters-evm"
import { X402Settlements } from "@svc/domain"
import { Context, Effect, Layer, Redacted } from "effect"
import { createTestClient, http } from "viem"
import { anvil as anvilChain } from "viem/chains"
import { anvil } from "../support/Anvil.ts"

/** Contracts whose every call answers one 32-byte word: 1 (`authorizationState` true) or 0 (false). */
const ANSWERS_TRUE = "0x7100000000000000000000000000000000000001"
const ANSWERS_FALSE = "0x7100000000000000000000000000000000000002"
const NO_CODE = "0x7100000000000000000000000000000000000003"

class Chain extends Context.Service<Chain, { readonly url: string }>()("tests/x402/Chain") {}

const ChainLive = Layer.effect(
  Chain,
  Effect.gen(function* () {
    const url = yield* anvil()
    const testClient = createTestClient({ chain: anvilChain, mode: "anvil", transport: http(url) })
    yield* Effect.promise(() => testClient.setCode({ address: ANSWERS_TRUE, bytecode: "0x600160005260206000f3" }))
    yield* Effect.promise(() => testClient.setCode({ address: ANSWERS_FALSE, bytecode: "0x600060005260206000f3" }))
    return Chain.of({ url })
  })
)

const state = (asset: string, chainId = 31337) =>
  Effect.flatMap(Chain, ({ url }) =>
    X402Settlements.use((s) =>
      s.state({
        chainId,
        asset,
        authorizer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        nonce: `0x${"11".repeat(32)}`
      })
    ).pipe(Effect.provide(X402SettlementsEvm(new Map([[31337, Redacted.make(url)]]), 2_000)))
  )

layer(ChainLive, { timeout: "60 seconds" })("x402 settlements seen on an EVM chain (anvil)", (it) => {
  it.effect(
    "the token's authorizationState says used or unused; a chain without an endpoint or an answer is unknown",
    () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* state(ANSWERS_TRUE), { _tag: "used", txHash: null })
        assert.deepStrictEqual(yield* state(ANSWERS_FALSE), { _tag: "unused" })
        assert.deepStrictEqual(yield* state(NO_CODE), { _tag: "unknown" })
        assert.deepStrictEqual(yield* state(ANSWERS_TRUE, 8453), { _tag: "unknown" })
      })
  )
})

import { readFileSync } from "node:fs"
import { createServer as createHttpServer, type Server as HttpServer } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { assert, describe, layer } from "@effect/vitest"
import { evmRail, payoutRail } from "@svc/api"
import { PayoutRail, type RailTransfer } from "@svc/domain"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  keccak256
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { anvil as anvilChain } from "viem/chains"
import { ANVIL_KEYS, anvil } from "../support/Anvil.ts"

const artifact = JSON.parse(readFileSync(new URL("./fixtures/TestToken.json", import.meta.url), "utf8")) as {
  readonly abi: Abi
  readonly bytecode: Hex
}

const HOT_KEY = ANVIL_KEYS[1]
const HOT_WALLET = privateKeyToAccount(HOT_KEY).address
/** 1,000 tokens of 6 decimals in the hot wallet; the deployer keeps the rest of the supply. */
const FUNDED = 1_000_000_000n
const SUPPLY = 1_000_000_000_000n

/** A local chain with the test token deployed and the hot wallet funded with it. */
class Chain extends Context.Service<
  Chain,
  {
    readonly url: string
    readonly token: Address
    readonly balanceOf: (address: Address) => Effect.Effect<bigint>
    /** The wallet's mined nonce (`latest`) or the one including its transactions waiting in the mempool. */
    readonly nonceOf: (address: Address, blockTag?: "latest" | "pending") => Effect.Effect<number>
    /** The transaction's receipt once it is mined (anvil mines a transaction just after it answers its broadcast). */
    readonly minedOf: (hash: string) => Effect.Effect<{ readonly status: string; readonly transactionHash: Hex }>
    /** Gives `address` 10 ETH and `tokens` base units of the token (from the deployer). */
    readonly fund: (address: Address, tokens: bigint) => Effect.Effect<void>
    readonly mine: (blocks: number) => Effect.Effect<void>
    readonly setAutomine: (on: boolean) => Effect.Effect<void>
  }
>()("tests/crypto/Chain") {}

const ChainLive = Layer.effect(
  Chain,
  Effect.gen(function* () {
    const url = yield* anvil()
    const transport = http(url)
    const client = createPublicClient({ chain: anvilChain, transport, pollingInterval: 20 })
    const testClient = createTestClient({ chain: anvilChain, mode: "anvil", transport })
    const deployer = createWalletClient({ account: privateKeyToAccount(ANVIL_KEYS[0]), chain: anvilChain, transport })
    const deployment = yield* Effect.promise(() =>
      deployer.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [SUPPLY] })
    )
    const { contractAddress } = yield* Effect.promise(() => client.waitForTransactionReceipt({ hash: deployment }))
    const token = contractAddress!
    const funding = yield* Effect.promise(() =>
      deployer.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [HOT_WALLET, FUNDED] })
    )
    yield* Effect.promise(() => client.waitForTransactionReceipt({ hash: funding }))
    return Chain.of({
      url,
      token,
      balanceOf: (address) =>
        Effect.promise(() =>
          client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address] })
        ),
      nonceOf: (address, blockTag = "latest") =>
        Effect.promise(() => client.getTransactionCount({ address, blockTag })),
      minedOf: (hash) => Effect.promise(() => client.waitForTransactionReceipt({ hash: hash as Hex, timeout: 10_000 })),
      fund: (address, tokens) =>
        Effect.promise(async () => {
          await testClient.setBalance({ address, value: 10n ** 19n })
          const hash = await deployer.writeContract({
            address: token,
            abi: erc20Abi,
            functionName: "transfer",
            args: [address, tokens]
          })
          await client.waitForTransactionReceipt({ hash })
        }),
      mine: (blocks) => Effect.promise(() => testClient.mine({ blocks })),
      setAutomine: (on) => Effect.promise(() => testClient.setAutomine(on))
    })
  })
)

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address

/** The address with the case of one letter flipped: no longer its EIP-55 form. */
const badChecksum = (address: Address) =>
  address.replace(/[a-fA-F](?=[^x]*$)/u, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))

const transferTo = (address: string, baseUnits: bigint, over: Partial<RailTransfer> = {}): RailTransfer => ({
  payoutId: "00000000-0000-4000-8000-000000000001",
  mode: "live",
  network: "ethereum",
  asset: "USDC",
  address,
  baseUnits,
  ...over
})

/** The environment of a rail paying USDC on "ethereum" (the local chain) from the hot wallet. */
const envOf = (chain: Context.Service.Shape<typeof Chain>, over: Record<string, string> = {}) => ({
  CRYPTO_EVM_PRIVATE_KEY: HOT_KEY,
  CRYPTO_ETHEREUM_RPC_URL: chain.url,
  CRYPTO_ETHEREUM_USDC_CONTRACT: chain.token,
  ...over
})

/** Runs `effect` with `rail` built from `env` alone. */
const withRailOf = <A, E, E2>(
  rail: Layer.Layer<PayoutRail, E2>,
  env: Record<string, string>,
  effect: Effect.Effect<A, E, PayoutRail>
) => effect.pipe(Effect.provide(rail.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))))

/** Runs `effect` with an EVM rail built, as the API builds it, from `env` alone. */
const withRail = <A, E>(env: Record<string, string>, effect: Effect.Effect<A, E, PayoutRail>) =>
  withRailOf(evmRail, env, effect)

/** A stand-in for the simulated rail, to see which rail `CRYPTO_RAIL` picks. */
const StandIn = Layer.succeed(
  PayoutRail,
  PayoutRail.of({
    prepare: () => Effect.succeed({ txHash: "stand-in", payload: "stand-in" }),
    broadcast: () => Effect.void,
    status: () => Effect.succeed({ _tag: "unknown" })
  })
)

/** A local port nothing listens on. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const server = createServer()
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 9))
      })
    })
)

/** A local RPC that answers every request 503 with a body repeating the request's path (as some error pages do). */
const failingRpc = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<HttpServer>((resolve) => {
        const server = createHttpServer((request, response) => {
          request.resume()
          response.writeHead(503, { "content-type": "text/plain" }).end(`upstream unavailable for ${request.url}`)
        })
        server.listen(0, "127.0.0.1", () => resolve(server))
      })
  ),
  (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
).pipe(Effect.map((server) => (server.address() as AddressInfo).port))

const assertNoKey = (text: string) => {
  assert.notInclude(text.toLowerCase(), HOT_KEY.slice(2).toLowerCase(), "the private key never shows")
}

layer(ChainLive, { timeout: "60 seconds" })("EVM payout rail on a local chain", (it) => {
  it.effect("signs without sending, then the broadcast transfer is mined and moves exactly the base units", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const destination = freshAddress()
      const walletBefore = yield* chain.balanceOf(HOT_WALLET)
      yield* withRail(
        envOf(chain),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const prepared = yield* rail.prepare(transferTo(destination, 1_234_567n))
          assert.match(prepared.txHash, /^0x[0-9a-f]{64}$/u)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "unknown" })
          assert.strictEqual(yield* chain.balanceOf(destination), 0n, "nothing moves before the broadcast")

          yield* rail.broadcast("ethereum", prepared)
          const receipt = yield* chain.minedOf(prepared.txHash)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "confirmed" })
          assert.strictEqual(receipt.transactionHash, prepared.txHash, "the mined hash is the prepared one")
          assert.strictEqual(receipt.status, "success")
        })
      )
      assert.strictEqual(yield* chain.balanceOf(destination), 1_234_567n)
      assert.strictEqual(yield* chain.balanceOf(HOT_WALLET), walletBefore - 1_234_567n)
    })
  )

  it.effect("broadcasting the same payload again, waiting or mined, sends it once", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const destination = freshAddress()
      const nonceBefore = yield* chain.nonceOf(HOT_WALLET)
      yield* withRail(
        envOf(chain),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const prepared = yield* rail.prepare(transferTo(destination, 5_000n))
          yield* chain.setAutomine(false)
          yield* Effect.gen(function* () {
            yield* rail.broadcast("ethereum", prepared)
            yield* rail.broadcast("ethereum", prepared)
            assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "pending" }, "in the mempool")
            assert.strictEqual(yield* chain.nonceOf(HOT_WALLET, "pending"), nonceBefore + 1)
            yield* chain.mine(1)
            yield* chain.minedOf(prepared.txHash)
          }).pipe(Effect.ensuring(chain.setAutomine(true)))
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "confirmed" })
          yield* rail.broadcast("ethereum", prepared)
          yield* rail.broadcast("ethereum", prepared)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "confirmed" })
        })
      )
      assert.strictEqual(yield* chain.balanceOf(destination), 5_000n, "the tokens moved once")
      assert.strictEqual(yield* chain.nonceOf(HOT_WALLET), nonceBefore + 1, "the wallet's nonce advanced once")
    })
  )

  it.effect("a transfer beyond the wallet's token balance is mined, reverts and is failed: reverted", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const destination = freshAddress()
      const walletBefore = yield* chain.balanceOf(HOT_WALLET)
      const nonceBefore = yield* chain.nonceOf(HOT_WALLET)
      yield* withRail(
        envOf(chain),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const prepared = yield* rail.prepare(transferTo(destination, walletBefore + 1n))
          yield* rail.broadcast("ethereum", prepared)
          assert.strictEqual((yield* chain.minedOf(prepared.txHash)).status, "reverted")
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "failed", reason: "reverted" })
        })
      )
      assert.strictEqual(yield* chain.nonceOf(HOT_WALLET), nonceBefore + 1, "mined, not refused before sending")
      assert.strictEqual(yield* chain.balanceOf(HOT_WALLET), walletBefore)
      assert.strictEqual(yield* chain.balanceOf(destination), 0n)
    })
  )

  it.effect("with 3 confirmations a mined transfer is pending until two more blocks are on top of it", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const destination = freshAddress()
      yield* withRail(
        envOf(chain, { CRYPTO_ETHEREUM_CONFIRMATIONS: "3" }),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const prepared = yield* rail.prepare(transferTo(destination, 42n))
          yield* rail.broadcast("ethereum", prepared)
          assert.strictEqual((yield* chain.minedOf(prepared.txHash)).status, "success", "mined")
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "pending" })
          yield* chain.mine(1)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "pending" })
          yield* chain.mine(1)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "confirmed" })
        })
      )
      assert.strictEqual(yield* chain.balanceOf(destination), 42n)
    })
  )

  it.effect("a transfer whose nonce another transaction took is failed: dropped, and its broadcast is harmless", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const first = freshAddress()
      const second = freshAddress()
      yield* withRail(
        envOf(chain),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const a = yield* rail.prepare(transferTo(first, 7n))
          const b = yield* rail.prepare(transferTo(second, 8n))
          assert.notStrictEqual(a.txHash, b.txHash)
          assert.deepStrictEqual(yield* rail.status("ethereum", a), { _tag: "unknown" })
          yield* rail.broadcast("ethereum", b)
          yield* chain.minedOf(b.txHash)
          assert.deepStrictEqual(yield* rail.status("ethereum", b), { _tag: "confirmed" })
          assert.deepStrictEqual(yield* rail.status("ethereum", a), { _tag: "failed", reason: "dropped" })
          yield* rail.broadcast("ethereum", a)
          assert.deepStrictEqual(yield* rail.status("ethereum", a), { _tag: "failed", reason: "dropped" })
        })
      )
      assert.strictEqual(yield* chain.balanceOf(first), 0n)
      assert.strictEqual(yield* chain.balanceOf(second), 8n)
    })
  )

  it.effect("a wallet without gas money is unavailable, and the same payload goes once it is funded", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const key = generatePrivateKey()
      const wallet = privateKeyToAccount(key).address
      const destination = freshAddress()
      yield* withRail(
        envOf(chain, { CRYPTO_EVM_PRIVATE_KEY: key }),
        Effect.gen(function* () {
          const rail = yield* PayoutRail
          const prepared = yield* rail.prepare(transferTo(destination, 300n))
          const error = yield* Effect.flip(rail.broadcast("ethereum", prepared))
          assert.strictEqual(error._tag, "RailUnavailable", "the worker tries again later")
          assert.include(error.message.toLowerCase(), "insufficient funds")
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "unknown" })

          yield* chain.fund(wallet, 1_000n)
          yield* rail.broadcast("ethereum", prepared)
          yield* chain.minedOf(prepared.txHash)
          assert.deepStrictEqual(yield* rail.status("ethereum", prepared), { _tag: "confirmed" })
        })
      )
      assert.strictEqual(yield* chain.balanceOf(destination), 300n)
      assert.strictEqual(yield* chain.balanceOf(wallet), 700n)
    })
  )

  it.effect("a transaction no node would take is rejected for good: signed for another chain", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const payload = yield* Effect.promise(() =>
        privateKeyToAccount(HOT_KEY).signTransaction({
          type: "eip1559",
          chainId: 1,
          nonce: 0,
          to: chain.token,
          gas: 100_000n,
          maxFeePerGas: 10n ** 10n,
          maxPriorityFeePerGas: 10n ** 9n
        })
      )
      const error = yield* withRail(
        envOf(chain),
        PayoutRail.use((rail) => Effect.flip(rail.broadcast("ethereum", { txHash: keccak256(payload), payload })))
      )
      assert.strictEqual(error._tag, "RailRejected")
      assert.include(error.message, "chain id")
      assertNoKey(error.message)
    })
  )

  it.effect(
    "refuses before signing what it cannot pay: another network, an unconfigured one or asset, a bad address",
    () =>
      Effect.gen(function* () {
        const chain = yield* Chain
        const destination = freshAddress()
        const nonceBefore = yield* chain.nonceOf(HOT_WALLET, "pending")
        yield* withRail(
          envOf(chain),
          Effect.gen(function* () {
            const rail = yield* PayoutRail
            const refusals = [
              transferTo("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d", 1n, { network: "solana" }),
              transferTo(destination, 1n, { network: "base" }),
              transferTo(destination, 1n, { asset: "USDT" }),
              transferTo("0x1234", 1n),
              transferTo(badChecksum(destination), 1n),
              transferTo(destination, 0n)
            ]
            for (const transfer of refusals) {
              const error = yield* Effect.flip(rail.prepare(transfer))
              assert.strictEqual(
                error._tag,
                "RailRejected",
                `${transfer.network} ${transfer.asset} ${transfer.address}`
              )
              assert.strictEqual(error.network, transfer.network)
              assertNoKey(error.message)
            }
            const solana = yield* Effect.flip(rail.prepare(refusals[0]!))
            assert.include(solana.message, "EVM")
            const base = yield* Effect.flip(rail.prepare(refusals[1]!))
            assert.include(base.message, "CRYPTO_BASE_RPC_URL")
            const unconfigured = yield* Effect.flip(rail.status("base", { txHash: "0x00", payload: "0x00" }))
            assert.strictEqual(unconfigured._tag, "RailUnavailable", "status never fails a payout for configuration")
            const forged = yield* Effect.flip(
              rail.broadcast("ethereum", { txHash: `0x${"1".repeat(64)}`, payload: "0x02" })
            )
            assert.strictEqual(forged._tag, "RailRejected", "a payload must hash to its transaction")
          })
        )
        assert.strictEqual(yield* chain.nonceOf(HOT_WALLET, "pending"), nonceBefore, "nothing was sent")
      })
  )

  it.effect("an RPC that does not answer or answers an HTTP error is unavailable; no error shows the key or URL", () =>
    Effect.gen(function* () {
      const chain = yield* Chain
      const closed = yield* closedPort
      const failing = yield* failingRpc
      const signed = yield* withRail(
        envOf(chain),
        PayoutRail.use((rail) => rail.prepare(transferTo(freshAddress(), 1n)))
      )
      for (const port of [closed, failing]) {
        const secretUrl = `http://127.0.0.1:${port}/v3/secret-api-key-123`
        const messages = yield* withRail(
          envOf(chain, { CRYPTO_ETHEREUM_RPC_URL: secretUrl, CRYPTO_ETHEREUM_CONFIRMATIONS: "2" }),
          Effect.gen(function* () {
            const rail = yield* PayoutRail
            const errors = [
              yield* Effect.flip(rail.prepare(transferTo(freshAddress(), 1n))),
              yield* Effect.flip(rail.broadcast("ethereum", signed)),
              yield* Effect.flip(rail.status("ethereum", signed))
            ]
            for (const error of errors) {
              assert.strictEqual(error._tag, "RailUnavailable")
              assert.strictEqual(error.network, "ethereum")
            }
            return errors.map((error) => `${error.message} ${String(error)} ${JSON.stringify(error)}`)
          })
        )
        for (const message of messages) {
          assertNoKey(message)
          assert.notInclude(message, "secret-api-key-123", "the RPC URL (which may hold an API key) never shows")
          assert.notInclude(message, signed.payload.slice(2, 80), "nor the signed payload")
        }
      }
    })
  )

  describe("configuration", () => {
    it.effect("CRYPTO_RAIL picks the simulated rail unless it names evm; another value stops the app", () =>
      Effect.gen(function* () {
        const chain = yield* Chain
        const prepare = PayoutRail.use((rail) => rail.prepare(transferTo(freshAddress(), 1n)))
        const byDefault = yield* withRailOf(payoutRail(StandIn), envOf(chain), prepare)
        assert.strictEqual(byDefault.txHash, "stand-in")
        const simulated = yield* withRailOf(payoutRail(StandIn), envOf(chain, { CRYPTO_RAIL: "simulated" }), prepare)
        assert.strictEqual(simulated.txHash, "stand-in")
        const evm = yield* withRailOf(payoutRail(StandIn), envOf(chain, { CRYPTO_RAIL: "evm" }), prepare)
        assert.match(evm.txHash, /^0x[0-9a-f]{64}$/u)
        const misspelt = yield* Effect.flip(
          withRailOf(payoutRail(StandIn), envOf(chain, { CRYPTO_RAIL: "evn" }), prepare)
        )
        assert.include(String(misspelt), "CRYPTO_RAIL")
      })
    )

    it.effect("a malformed or missing private key stops the rail from starting, without echoing the key", () =>
      Effect.gen(function* () {
        const chain = yield* Chain
        const typo = `${HOT_KEY.slice(0, -1)}z`
        const malformed = yield* Effect.flip(withRail(envOf(chain, { CRYPTO_EVM_PRIVATE_KEY: typo }), PayoutRail))
        assert.include(String(malformed), "CRYPTO_EVM_PRIVATE_KEY")
        assert.notInclude(String(malformed), typo.slice(2, -1))
        const { CRYPTO_EVM_PRIVATE_KEY: _, ...withoutKey } = envOf(chain)
        const missing = yield* Effect.flip(withRail(withoutKey, PayoutRail))
        assert.include(String(missing), "CRYPTO_EVM_PRIVATE_KEY")
      })
    )

    it.effect("a malformed contract address or confirmation count stops the rail from starting", () =>
      Effect.gen(function* () {
        const chain = yield* Chain
        const contract = yield* Effect.flip(
          withRail(envOf(chain, { CRYPTO_ETHEREUM_USDT_CONTRACT: "0xnot-an-address" }), PayoutRail)
        )
        assert.include(String(contract), "CRYPTO_ETHEREUM_USDT_CONTRACT")
        const confirmations = yield* Effect.flip(
          withRail(envOf(chain, { CRYPTO_ETHEREUM_CONFIRMATIONS: "0" }), PayoutRail)
        )
        assert.include(String(confirmations), "CRYPTO_ETHEREUM_CONFIRMATIONS")
      })
    )
  })
})

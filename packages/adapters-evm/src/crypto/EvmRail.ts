import {
  type CryptoAsset,
  type CryptoNetwork,
  EVM_NETWORKS,
  type EvmNetwork,
  isEvmNetwork,
  PayoutRail,
  type PreparedTransfer,
  RailRejected,
  type RailStatus,
  type RailTransfer,
  RailUnavailable
} from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import {
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  HttpRequestError,
  http,
  isAddress,
  isHex,
  keccak256,
  maxUint256,
  type PublicClient,
  parseTransaction,
  recoverTransactionAddress,
  TimeoutError,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  type TransactionSerialized
} from "viem"
import { privateKeyToAccount } from "viem/accounts"

/** One EVM network the rail pays out on. */
export interface EvmNetworkSettings {
  /** May hold an API key in its path or user info: never logged, never in an error. */
  readonly rpcUrl: Redacted.Redacted<string>
  readonly contracts: Partial<Record<CryptoAsset, Address>>
  /** Blocks a transaction's block must have on top of it, itself included, before it is final. */
  readonly confirmations: number
  readonly gasLimit: bigint
}

/** What the rail is built from: the hot wallet's key, the RPC timeout and the networks it pays out on. */
export interface EvmRailSettings {
  readonly privateKey: Redacted.Redacted<string>
  readonly rpcTimeoutMs: number
  readonly networks: Partial<Record<EvmNetwork, EvmNetworkSettings>>
}

/** The gas limit of a transfer unless its network or the rail says otherwise. */
export const DEFAULT_GAS_LIMIT = 100_000
/** The confirmations a transfer waits for unless its network says otherwise. */
export const DEFAULT_CONFIRMATIONS = 1
/** How long an RPC call may take unless the rail says otherwise. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000
/** Room for the base fee to rise (12.5% a full block at most) between signing and inclusion. */
const BASE_FEE_MULTIPLIER = 2
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/u

/** The variable that configures `key` of `network` (`CRYPTO_<NETWORK>_<KEY>`), named where a missing setting refuses a payout. */
export const evmVariable = (network: EvmNetwork, key: string) => `CRYPTO_${network.toUpperCase()}_${key}`

/** Whether `key` has the form of a hot wallet's private key (0x and 64 hex digits). */
export const isEvmPrivateKey = (key: string): boolean => PRIVATE_KEY.test(key)

/** One configured network: its client, settings and, once read, its chain id. */
interface Connection {
  readonly network: EvmNetwork
  readonly client: PublicClient
  readonly settings: EvmNetworkSettings
  chain: Chain | undefined
}

/** Strips what an error text must never carry: URLs (they may hold API keys), long hex (signed payloads), the key. */
const scrubber =
  (key: Redacted.Redacted<string>) =>
  (text: string): string => {
    const secret = Redacted.value(key).slice(2).toLowerCase()
    return text
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/giu, "<url>")
      .replace(/(?:0x)?[0-9a-f]{64,}/giu, (hex) => (hex.toLowerCase().includes(secret) ? "<redacted>" : "<hex>"))
      .slice(0, 300)
  }

/** What the node or the transport said (viem's `details`: a JSON-RPC error's message, an HTTP error's body). */
const wordsOf = (cause: unknown): string => {
  if (cause instanceof BaseError) return cause.details || cause.shortMessage
  return cause instanceof Error ? cause.message : ""
}

/**
 * Why a call failed, for an error message: a JSON-RPC error's own words, an HTTP error's status only (a provider's
 * error page may repeat the URL and its key), never the request.
 */
const reasonOf = (cause: unknown): string => {
  const http = cause instanceof BaseError ? cause.walk((e) => e instanceof HttpRequestError) : null
  if (http instanceof HttpRequestError && http.status !== undefined) return `HttpRequestError: HTTP ${http.status}`
  return cause instanceof Error ? `${cause.name}: ${wordsOf(cause)}` : "unknown failure"
}

/**
 * No node answered (timeout, connection refused). An HTTP error status is an answer: some providers send a node's
 * refusal ("nonce too low") with one, so its body is read like any other refusal.
 */
const noAnswer = (cause: unknown) =>
  cause instanceof BaseError &&
  cause.walk((e) => e instanceof TimeoutError || (e instanceof HttpRequestError && e.status === undefined)) !== null

/** The node has this transaction already, or its nonce is taken: `status` tells by whom. */
const ALREADY_SENT =
  /already known|known transaction|already imported|alreadyknown|nonce too low|nonce has already been used|oldnonce/iu
/** The node will never take this transaction, from any sender at any time. */
const NEVER_VALID =
  /invalid sender|invalid signature|invalid chain ?id|chain ?id mismatch|wrong chain|intrinsic gas too low|exceeds block gas limit|rlp|could not decode|failed to decode|malformed/iu

/**
 * The EVM payout rail: ERC-20 `transfer`s of USDC or USDT from one hot wallet (`privateKey`), on each EVM network
 * its settings name.
 *
 * `prepare` signs an EIP-1559 transaction without sending it, so its hash is known and stored before the first
 * broadcast; `broadcast` sends exactly that payload, again as often as needed (a node that already has it, or whose
 * wallet nonce is past it, answers success: `status` then says whether it was mined or dropped). The gas limit is
 * fixed per network (`gasLimit`), so a transfer that will revert is still
 * mined and reported `failed` ("reverted") rather than refused before it is sent.
 *
 * Nonces: `prepare` takes the wallet's pending nonce. The caller must therefore prepare one transfer at a time per
 * wallet (one worker process) and broadcast every stored transfer the network has not seen before preparing a new
 * one; otherwise two transfers share a nonce and one of them ends `failed` ("dropped").
 */
const make = (settings: EvmRailSettings) =>
  Effect.gen(function* () {
    const key = settings.privateKey
    const account = privateKeyToAccount(Redacted.value(key) as Hex)
    const scrub = scrubber(key)
    const connections = new Map<CryptoNetwork, Connection>()
    for (const network of EVM_NETWORKS) {
      const configured = settings.networks[network]
      if (configured !== undefined) {
        const transport = http(Redacted.value(configured.rpcUrl), { retryCount: 0, timeout: settings.rpcTimeoutMs })
        // No cache: a stale block number would hold a confirmed transfer pending.
        const client: PublicClient = createPublicClient({ transport, cacheTime: 0 })
        connections.set(network, { network, client, settings: configured, chain: undefined })
      }
    }

    const unavailable = (network: CryptoNetwork, what: string, cause: unknown) =>
      new RailUnavailable({ network, message: scrub(`${what} failed on ${network}: ${reasonOf(cause)}`) })

    /** One RPC call; any failure is the network being unavailable. */
    const rpc = <A>(connection: Connection, what: string, call: (client: PublicClient) => Promise<A>) =>
      Effect.tryPromise({
        try: () => call(connection.client),
        catch: (cause) => unavailable(connection.network, what, cause)
      })

    const receiptOf = (connection: Connection, hash: Hex) =>
      rpc(connection, "reading the receipt", (client) =>
        client.getTransactionReceipt({ hash }).catch((error: unknown): TransactionReceipt | null => {
          if (error instanceof TransactionReceiptNotFoundError) return null
          throw error
        })
      )

    const transactionKnown = (connection: Connection, hash: Hex) =>
      rpc(connection, "reading the transaction", (client) =>
        client.getTransaction({ hash }).then(
          () => true,
          (error: unknown) => {
            if (error instanceof TransactionNotFoundError) return false
            throw error
          }
        )
      )

    /** The chain, with its id read from the RPC once. */
    const chainOf = (connection: Connection) =>
      connection.chain !== undefined
        ? Effect.succeed(connection.chain)
        : rpc(connection, "reading the chain id", (client) => client.getChainId()).pipe(
            Effect.map((id) => {
              const chain = defineChain({
                id,
                name: connection.network,
                nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
                rpcUrls: { default: { http: [] } },
                fees: { baseFeeMultiplier: BASE_FEE_MULTIPLIER }
              })
              connection.chain = chain
              return chain
            })
          )

    const connectionFor = (network: CryptoNetwork) =>
      Effect.fromNullishOr(connections.get(network)).pipe(
        Effect.mapError(() => new RailUnavailable({ network, message: `no RPC is configured for ${network}` }))
      )

    /** The signed payload of `prepared`, if it is one and hashes to its hash; a stored payload that is not is a bug. */
    const signedPayload = (prepared: PreparedTransfer): Hex | null =>
      isHex(prepared.payload) && keccak256(prepared.payload) === prepared.txHash.toLowerCase() ? prepared.payload : null

    /** Where a mined transaction stands, counting confirmations (a revert too is final only once confirmed). */
    const settled = (connection: Connection, receipt: TransactionReceipt) =>
      rpc(connection, "reading the block number", (client) => client.getBlockNumber()).pipe(
        Effect.map((head): RailStatus => {
          if (head - receipt.blockNumber + 1n < BigInt(connection.settings.confirmations)) return { _tag: "pending" }
          return receipt.status === "success" ? { _tag: "confirmed" } : { _tag: "failed", reason: "reverted" }
        })
      )

    const prepare = Effect.fn("EvmRail.prepare")(function* (transfer: RailTransfer) {
      const { network, asset } = transfer
      yield* Effect.annotateCurrentSpan({
        "crypto.network": network,
        "crypto.asset": asset,
        "crypto.payout_id": transfer.payoutId
      })
      const reject = (message: string) => Effect.fail(new RailRejected({ network, message }))
      if (!isEvmNetwork(network)) return yield* reject(`the EVM rail pays out on ${EVM_NETWORKS.join(", ")} only`)
      const connection = connections.get(network)
      if (connection === undefined) {
        return yield* reject(`no RPC is configured for ${network} (${evmVariable(network, "RPC_URL")})`)
      }
      const token = connection.settings.contracts[asset]
      if (token === undefined) {
        return yield* reject(
          `no ${asset} contract is configured for ${network} (${evmVariable(network, `${asset}_CONTRACT`)})`
        )
      }
      if (!isAddress(transfer.address)) return yield* reject("the destination is not an EVM address (EIP-55)")
      if (transfer.baseUnits <= 0n || transfer.baseUnits > maxUint256) {
        return yield* reject("the amount must be a positive number of base units")
      }
      const chain = yield* chainOf(connection)
      const nonce = yield* rpc(connection, "reading the wallet's nonce", (client) =>
        client.getTransactionCount({ address: account.address, blockTag: "pending" })
      )
      const fees = yield* rpc(connection, "reading the fees", (client) => client.estimateFeesPerGas({ chain }))
      const payload = yield* Effect.promise(() =>
        account.signTransaction({
          type: "eip1559",
          chainId: chain.id,
          nonce,
          to: token,
          value: 0n,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: "transfer",
            args: [getAddress(transfer.address), transfer.baseUnits]
          }),
          gas: connection.settings.gasLimit,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas
        })
      )
      const txHash = keccak256(payload)
      yield* Effect.annotateCurrentSpan({ "crypto.tx_hash": txHash, "crypto.nonce": nonce })
      return { txHash, payload } satisfies PreparedTransfer
    })

    const broadcast = Effect.fn("EvmRail.broadcast")(function* (network: CryptoNetwork, prepared: PreparedTransfer) {
      yield* Effect.annotateCurrentSpan({ "crypto.network": network, "crypto.tx_hash": prepared.txHash })
      if (!isEvmNetwork(network)) {
        return yield* new RailRejected({ network, message: "the EVM rail broadcasts on EVM networks only" })
      }
      const connection = yield* connectionFor(network)
      const payload = signedPayload(prepared)
      if (payload === null) {
        return yield* new RailRejected({ network, message: "the payload is not the signed transaction of this hash" })
      }
      const hash = prepared.txHash as Hex
      yield* Effect.tryPromise({
        try: () => connection.client.sendRawTransaction({ serializedTransaction: payload }),
        catch: (cause) => cause
      }).pipe(
        Effect.catch((cause) =>
          Effect.gen(function* () {
            if (noAnswer(cause)) return yield* unavailable(network, "broadcasting", cause)
            if (yield* transactionKnown(connection, hash).pipe(Effect.orElseSucceed(() => false))) return
            const words = wordsOf(cause)
            if (ALREADY_SENT.test(words)) return
            if (NEVER_VALID.test(words)) {
              const message = scrub(`the node refused the transaction: ${reasonOf(cause)}`)
              return yield* new RailRejected({ network, message })
            }
            return yield* unavailable(network, "broadcasting", cause)
          })
        )
      )
    })

    const status = Effect.fn("EvmRail.status")(function* (network: CryptoNetwork, prepared: PreparedTransfer) {
      yield* Effect.annotateCurrentSpan({ "crypto.network": network, "crypto.tx_hash": prepared.txHash })
      const connection = yield* connectionFor(network)
      const payload = signedPayload(prepared)
      if (payload === null)
        return yield* Effect.die(new Error("a stored payload does not hash to its transaction hash"))
      const hash = prepared.txHash as Hex
      const receipt = yield* receiptOf(connection, hash)
      if (receipt !== null) return yield* settled(connection, receipt)
      if (yield* transactionKnown(connection, hash)) return { _tag: "pending" } satisfies RailStatus
      const { nonce } = parseTransaction(payload)
      const from = yield* Effect.promise(() =>
        recoverTransactionAddress({ serializedTransaction: payload as TransactionSerialized })
      )
      // Dropped is final only once the transaction that took the nonce has the configured confirmations.
      const head = yield* rpc(connection, "reading the block number", (client) => client.getBlockNumber())
      const deep = head - BigInt(connection.settings.confirmations - 1)
      const used = yield* rpc(connection, "reading the wallet's nonce", (client) =>
        client.getTransactionCount({ address: from, blockNumber: deep < 0n ? 0n : deep })
      )
      if (nonce === undefined || used <= nonce) return { _tag: "unknown" } satisfies RailStatus
      const late = yield* receiptOf(connection, hash)
      if (late !== null) return yield* settled(connection, late)
      return { _tag: "failed", reason: "dropped" } satisfies RailStatus
    })

    return PayoutRail.of({ prepare, broadcast, status })
  })

/** `PayoutRail` on EVM networks from its settings (see `make` above for the variables and the nonce discipline). */
export const layer = (settings: EvmRailSettings) => Layer.effect(PayoutRail, make(settings))

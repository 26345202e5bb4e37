import type { EvmRail } from "@svc/adapters-evm"
import {
  type CryptoAsset,
  type CryptoFeeSchedule,
  CryptoNetwork,
  checksummedEvmAddress,
  DEFAULT_CRYPTO_FEES,
  DEFAULT_X402_ASSETS,
  EVM_NETWORKS,
  type EvmNetwork,
  X402_NETWORKS,
  type X402Asset
} from "@svc/domain"
import { Config, Effect, Option, Redacted } from "effect"
import { invalid, wholeNumber } from "./Values.ts"

/** Where payouts leave (`CRYPTO_RAIL`): the simulated rail unless `evm`. */
export const cryptoRail = Config.Literals(["simulated", "evm"], "CRYPTO_RAIL").pipe(Config.withDefault("simulated"))

type ContractAddress = NonNullable<EvmRail.EvmNetworkSettings["contracts"][CryptoAsset]>

/** The EVM rail's module, loaded when the rail is chosen: its settings are read with its key check and defaults. */
export type EvmRailModule = typeof EvmRail

/** A contract address from the environment (`name`), in its EIP-55 form; none when unset or blank. */
const contractAddress = (name: string) =>
  Config.option(Config.String(name)).pipe(
    Config.mapEffect((value) =>
      Option.match(
        Option.filter(value, (text) => text.trim() !== ""),
        {
          onNone: () => Effect.succeed(Option.none<ContractAddress>()),
          onSome: (text) => {
            const address = checksummedEvmAddress(text.trim()) as ContractAddress | undefined
            return address === undefined
              ? Effect.fail(invalid(`${name} must be an EVM address (0x and 40 hex digits)`))
              : Effect.succeed(Option.some(address))
          }
        }
      )
    )
  )

/** One EVM network's `CRYPTO_<NETWORK>_*` settings, or none when its RPC URL is unset. */
const evmNetworkConfig = (EvmRail: EvmRailModule, network: EvmNetwork, defaultGasLimit: number) =>
  Effect.gen(function* () {
    const variable = (key: string) => EvmRail.evmVariable(network, key)
    const rpcUrl = yield* Config.option(Config.Redacted(variable("RPC_URL")))
    if (Option.isNone(rpcUrl) || Redacted.value(rpcUrl.value).trim() === "")
      return Option.none<EvmRail.EvmNetworkSettings>()
    const contracts: Partial<Record<CryptoAsset, ContractAddress>> = {}
    for (const asset of ["USDC", "USDT"] as const) {
      const contract = yield* contractAddress(variable(`${asset}_CONTRACT`))
      if (Option.isSome(contract)) contracts[asset] = contract.value
    }
    const confirmations = yield* wholeNumber(variable("CONFIRMATIONS"), EvmRail.DEFAULT_CONFIRMATIONS, 1, 1_000)
    const gasLimit = yield* wholeNumber(variable("GAS_LIMIT"), defaultGasLimit, 21_000, 30_000_000)
    return Option.some<EvmRail.EvmNetworkSettings>({
      rpcUrl: rpcUrl.value,
      contracts,
      confirmations,
      gasLimit: BigInt(gasLimit)
    })
  })

/**
 * The EVM rail's settings (`CRYPTO_RAIL=evm`): the hot wallet's key `CRYPTO_EVM_PRIVATE_KEY` (checked without ever
 * being echoed), `CRYPTO_EVM_GAS_LIMIT`, `CRYPTO_EVM_RPC_TIMEOUT_MS`, and each network whose `CRYPTO_<NETWORK>_RPC_URL`
 * is set.
 */
export const evmRailConfig = (EvmRail: EvmRailModule) =>
  Effect.gen(function* () {
    const privateKey = yield* Config.Redacted("CRYPTO_EVM_PRIVATE_KEY").pipe(
      Config.mapEffect((key) =>
        EvmRail.isEvmPrivateKey(Redacted.value(key))
          ? Effect.succeed(key)
          : Effect.fail(invalid("CRYPTO_EVM_PRIVATE_KEY must be 0x and 64 hex digits"))
      )
    )
    const defaultGasLimit = yield* wholeNumber("CRYPTO_EVM_GAS_LIMIT", EvmRail.DEFAULT_GAS_LIMIT, 21_000, 30_000_000)
    const rpcTimeoutMs = yield* wholeNumber("CRYPTO_EVM_RPC_TIMEOUT_MS", EvmRail.DEFAULT_RPC_TIMEOUT_MS, 100, 600_000)
    const networks: Partial<Record<EvmNetwork, EvmRail.EvmNetworkSettings>> = {}
    for (const network of EVM_NETWORKS) {
      const settings = yield* evmNetworkConfig(EvmRail, network, defaultGasLimit)
      if (Option.isSome(settings)) networks[network] = settings.value
    }
    return { privateKey, rpcTimeoutMs, networks } satisfies EvmRail.EvmRailSettings
  })

/**
 * The fee schedule crypto quotes charge: `CRYPTO_FEE_BPS` (default 50), `CRYPTO_FEE_MINIMUM` (cents, default 100) and
 * `CRYPTO_NETWORK_FEE_<NETWORK>` (cents: ETHEREUM 300, ARBITRUM 10, BASE 5, POLYGON 5, SOLANA 1).
 */
export const cryptoFeesConfig = Effect.gen(function* () {
  const serviceFeeBps = yield* wholeNumber("CRYPTO_FEE_BPS", DEFAULT_CRYPTO_FEES.serviceFeeBps, 0, 10_000)
  const serviceFeeMinimum = yield* wholeNumber("CRYPTO_FEE_MINIMUM", DEFAULT_CRYPTO_FEES.serviceFeeMinimum, 0)
  const networkFees = { ...DEFAULT_CRYPTO_FEES.networkFees }
  for (const network of CryptoNetwork.literals) {
    networkFees[network] = yield* wholeNumber(
      `CRYPTO_NETWORK_FEE_${network.toUpperCase()}`,
      DEFAULT_CRYPTO_FEES.networkFees[network],
      0
    )
  }
  return { serviceFeeBps, serviceFeeMinimum, networkFees } satisfies CryptoFeeSchedule
})

/** How long a settlement watch's RPC call may take unless `X402_RPC_TIMEOUT_MS` says otherwise. */
const X402_RPC_TIMEOUT_MS = 10_000

/** The chain id of the local test chain (anvil), whose token is configured where it is deployed. */
const LOCAL_CHAIN_ID = 31337

/**
 * The x402 settings (ADR 0062): the tokens paid in (Circle's USDC, and `X402_LOCAL_TOKEN`, a 6-decimal dollar token on
 * the local chain, when set), the RPC endpoint of each chain whose settlements are watched (`X402_RPC_URL_<chain id>`;
 * may hold an API key: never logged), its timeout (`X402_RPC_TIMEOUT_MS`) and the watch's interval
 * (`X402_WATCH_INTERVAL_SECONDS`).
 */
export const x402Config = Effect.gen(function* () {
  const localToken = yield* contractAddress("X402_LOCAL_TOKEN")
  const assets: ReadonlyArray<X402Asset> = Option.match(localToken, {
    onNone: () => DEFAULT_X402_ASSETS,
    onSome: (address) => [...DEFAULT_X402_ASSETS, { chainId: LOCAL_CHAIN_ID, address, symbol: "USD", decimals: 6 }]
  })
  const rpcUrls = new Map<number, Redacted.Redacted<string>>()
  for (const network of X402_NETWORKS) {
    const url = yield* Config.option(Config.Redacted(`X402_RPC_URL_${network.chainId}`))
    if (Option.isSome(url) && Redacted.value(url.value).trim() !== "") rpcUrls.set(network.chainId, url.value)
  }
  return {
    assets,
    rpcUrls,
    rpcTimeoutMs: yield* wholeNumber("X402_RPC_TIMEOUT_MS", X402_RPC_TIMEOUT_MS, 100, 600_000),
    watchIntervalSeconds: yield* wholeNumber("X402_WATCH_INTERVAL_SECONDS", 5, 1, 3_600)
  }
})

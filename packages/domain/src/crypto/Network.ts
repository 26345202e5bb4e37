import { Schema } from "effect"

/** The networks payouts go out on. */
export const CryptoNetwork = Schema.Literals(["ethereum", "base", "polygon", "arbitrum", "solana"]).annotate({
  description: "The blockchain network the payout goes over.",
  examples: ["base"]
})
export type CryptoNetwork = typeof CryptoNetwork.Type

/** The stablecoins paid out. */
export const CryptoAsset = Schema.Literals(["USDC", "USDT"]).annotate({
  description: "The stablecoin paid out.",
  examples: ["USDC"]
})
export type CryptoAsset = typeof CryptoAsset.Type

/** The networks whose addresses and transfers follow the EVM (EIP-55 addresses, ERC-20 tokens). */
export const EVM_NETWORKS = ["ethereum", "base", "polygon", "arbitrum"] as const satisfies ReadonlyArray<CryptoNetwork>
export type EvmNetwork = (typeof EVM_NETWORKS)[number]

export const isEvmNetwork = (network: CryptoNetwork): network is EvmNetwork =>
  (EVM_NETWORKS as ReadonlyArray<CryptoNetwork>).includes(network)

/** The decimals of each asset's smallest unit. */
export const ASSET_DECIMALS: Readonly<Record<CryptoAsset, number>> = { USDC: 6, USDT: 6 }

/** Which assets each network carries: the issuers' own deployments (Tether issues no USDT on Base). */
export const NETWORK_ASSETS: Readonly<Record<CryptoNetwork, ReadonlyArray<CryptoAsset>>> = {
  ethereum: ["USDC", "USDT"],
  base: ["USDC"],
  polygon: ["USDC", "USDT"],
  arbitrum: ["USDC", "USDT"],
  solana: ["USDC", "USDT"]
}

export const networkCarries = (network: CryptoNetwork, asset: CryptoAsset): boolean =>
  NETWORK_ASSETS[network].includes(asset)

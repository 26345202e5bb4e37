import { Schema } from "effect"

/** An EVM network x402 payments are signed for: its chain id, and its names in x402 v1 and v2 (CAIP-2). */
export interface X402Network {
  readonly chainId: number
  /** The x402 v1 name (`base-sepolia`); none for the local test chain, which v1 never named. */
  readonly v1Name: string | null
}

/**
 * The networks the service signs for: the EVM networks payouts go out on (Ethereum, Base, Polygon, Arbitrum), Base's
 * test network, and the local test chain (anvil, chain id 31337).
 */
export const X402_NETWORKS: ReadonlyArray<X402Network> = [
  { chainId: 1, v1Name: "ethereum" },
  { chainId: 8453, v1Name: "base" },
  { chainId: 84532, v1Name: "base-sepolia" },
  { chainId: 137, v1Name: "polygon" },
  { chainId: 42161, v1Name: null },
  { chainId: 31337, v1Name: null }
]

const CAIP2 = /^eip155:([1-9][0-9]{0,15})$/u

/** The network a requirement names, by its v1 name or its CAIP-2 id (`eip155:<chain id>`); none when unsupported. */
export const x402NetworkOf = (name: string, x402Version: 1 | 2): X402Network | undefined => {
  if (x402Version === 1) return X402_NETWORKS.find((n) => n.v1Name === name)
  const match = CAIP2.exec(name)
  const chainId = match?.[1] === undefined ? undefined : Number(match[1])
  return X402_NETWORKS.find((n) => n.chainId === chainId)
}

/**
 * A token the service pays x402 requirements in: a dollar stablecoin of `decimals` minor units, counted in budgets at
 * one US dollar a token (`usdRate`), on one chain.
 */
export const X402Asset = Schema.Struct({
  chainId: Schema.Int,
  /** The token contract, EIP-55. */
  address: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Int
})
export type X402Asset = typeof X402Asset.Type

/** Circle's USDC on the networks above (the local chain's token is configured: it is deployed by whoever runs it). */
export const DEFAULT_X402_ASSETS: ReadonlyArray<X402Asset> = [
  { chainId: 1, address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", symbol: "USDC", decimals: 6 },
  { chainId: 8453, address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", symbol: "USDC", decimals: 6 },
  { chainId: 84532, address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", symbol: "USDC", decimals: 6 },
  { chainId: 137, address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", symbol: "USDC", decimals: 6 },
  { chainId: 42161, address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", symbol: "USDC", decimals: 6 }
]

/** The rate a stablecoin is counted at in budgets: one US dollar a token. */
export const X402_USD_RATE = "1"

/**
 * `units` minor units of a token of `decimals` (at least 2) in US cents at one dollar a token, rounded up: a budget
 * never counts less than what leaves.
 */
export const centsOfUnits = (units: bigint, decimals: number): bigint => {
  const perCent = 10n ** BigInt(decimals - 2)
  return (units + perCent - 1n) / perCent
}

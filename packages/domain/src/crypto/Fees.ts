import { ASSET_DECIMALS, type CryptoAsset, type CryptoNetwork } from "./Network.ts"

/** What a quote charges, in US cents: a service fee of `serviceFeeBps` of the amount (at least `serviceFeeMinimum`), and a network fee per network. */
export interface CryptoFeeSchedule {
  readonly serviceFeeBps: number
  readonly serviceFeeMinimum: number
  readonly networkFees: Readonly<Record<CryptoNetwork, number>>
}

/** 50 bps with a USD 1.00 minimum; network fees estimated per network. */
export const DEFAULT_CRYPTO_FEES: CryptoFeeSchedule = {
  serviceFeeBps: 50,
  serviceFeeMinimum: 100,
  networkFees: { ethereum: 300, arbitrum: 10, base: 5, polygon: 5, solana: 1 }
}

/** The fees of paying `amount` cents out on `network`, and what is left to deliver (may be zero or less). */
export interface QuotedFees {
  readonly serviceFee: number
  readonly networkFee: number
  readonly amountDelivered: number
}

/** `max(minimum, ceil(amount * bps / 10000))`, exactly (in bigint, so no product is rounded). */
export const serviceFeeOf = (schedule: CryptoFeeSchedule, amount: number): number => {
  const proportional = (BigInt(amount) * BigInt(schedule.serviceFeeBps) + 9999n) / 10000n
  return Math.max(schedule.serviceFeeMinimum, Number(proportional))
}

/** The fees of a quote of `amount` cents on `network` under `schedule`. */
export const quoteFees = (schedule: CryptoFeeSchedule, network: CryptoNetwork, amount: number): QuotedFees => {
  const serviceFee = serviceFeeOf(schedule, amount)
  const networkFee = schedule.networkFees[network]
  return { serviceFee, networkFee, amountDelivered: amount - serviceFee - networkFee }
}

/** `cents` of USD as base units of a USD stablecoin: cents × 10^(decimals - 2), as a decimal integer string. */
export const tokenBaseUnits = (asset: CryptoAsset, cents: number): string =>
  (BigInt(cents) * 10n ** BigInt(ASSET_DECIMALS[asset] - 2)).toString()

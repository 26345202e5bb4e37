import { EvmRail, X402SettlementsEvm, X402SignerEvm } from "@svc/adapters-evm"
import {
  AuthorizationDeadline,
  AuthorizationTolerance,
  CardNumberKey,
  CryptoFees,
  type PayoutRail,
  X402Assets,
  X402Payments
} from "@svc/domain"
import { type Config, Effect, Layer, Redacted } from "effect"
import type { ServiceConfig } from "./Config.ts"
import { cryptoFeesConfig, cryptoRail, evmRailConfig, x402Config } from "./config/PaymentsConfig.ts"
import { backgroundJobs } from "./Workers.ts"

/** The checkout settings a card's issuing and authorizations read. */
export const checkoutSettings = (config: ServiceConfig) =>
  Layer.mergeAll(
    Layer.succeed(AuthorizationTolerance, config.cardAuthToleranceMinor),
    Layer.succeed(AuthorizationDeadline, config.cardAuthDeadlineMs),
    Layer.succeed(CardNumberKey, Redacted.value(config.cardNumberKey))
  )

/** The fees crypto quotes charge, from the `CRYPTO_FEE_*` and `CRYPTO_NETWORK_FEE_*` variables. */
export const cryptoFees = Layer.effect(CryptoFees, cryptoFeesConfig)

/** The EVM rail over the `CRYPTO_*` settings of the environment (ADR 0033). */
export const evmRail = Layer.unwrap(Effect.map(evmRailConfig, EvmRail.layer))

/**
 * The payout rail `CRYPTO_RAIL` names: `simulated` (the default), or `evm`, which signs ERC-20 transfers from the hot
 * wallet on the EVM networks configured by the `CRYPTO_*` variables (`EvmRail`, ADR 0033).
 */
export const payoutRail = <E, R>(simulated: Layer.Layer<PayoutRail, E, R>) => {
  const rails: Record<"simulated" | "evm", Layer.Layer<PayoutRail, E | Config.ConfigError, R>> = {
    simulated,
    evm: evmRail
  }
  return Layer.unwrap(Effect.map(cryptoRail, (rail) => rails[rail]))
}

/**
 * x402 payments (ADR 0062): signed by the teams' wallets with viem, their settlements watched on the chains the `X402_*`
 * variables give an endpoint for, every `X402_WATCH_INTERVAL_SECONDS`.
 */
export const x402Payments = Layer.unwrap(
  Effect.map(x402Config, (c) =>
    backgroundJobs(X402Payments.watcher(`${c.watchIntervalSeconds} seconds`)).pipe(
      Layer.provideMerge(X402Payments.layer),
      Layer.provide([X402SignerEvm, X402SettlementsEvm(c.rpcUrls, c.rpcTimeoutMs), Layer.succeed(X402Assets, c.assets)])
    )
  )
)

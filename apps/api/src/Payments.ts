import { X402SettlementsUnwatched } from "@svc/adapters-evm/unwatched"
import {
  AuthorizationDeadline,
  AuthorizationTolerance,
  CardNumberKey,
  CryptoFees,
  type PayoutRail,
  X402Assets,
  X402Payments,
  X402Signer
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

/**
 * The EVM adapters, imported when first needed: viem with its curves and hashes (about 20 MB resident) stays out of a
 * process that never pays out on chain, signs an x402 payment or watches a chain (ADR 0063).
 */
const evmAdapters = Effect.promise(() => import("@svc/adapters-evm"))

/** The EVM rail over the `CRYPTO_*` settings of the environment (ADR 0033), built when the rail is chosen. */
export const evmRail = Layer.unwrap(
  Effect.gen(function* () {
    const { EvmRail } = yield* evmAdapters
    return EvmRail.layer(yield* evmRailConfig(EvmRail))
  })
)

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

/** The wallets' signer, whose module is imported at the first wallet made or payment signed. */
const x402Signer = Layer.effect(
  X402Signer,
  Effect.map(Effect.cached(Effect.map(evmAdapters, (evm) => evm.x402SignerEvm)), (signer) =>
    X402Signer.of({
      generateKey: Effect.flatMap(signer, (s) => s.generateKey),
      signAuthorization: (privateKey, toSign) => Effect.flatMap(signer, (s) => s.signAuthorization(privateKey, toSign))
    })
  )
)

/** Settlements watched over the chains given an endpoint; with none, every authorization's state is unknown. */
const x402Settlements = (rpcUrls: ReadonlyMap<number, Redacted.Redacted<string>>, timeoutMs: number) =>
  rpcUrls.size === 0
    ? X402SettlementsUnwatched
    : Layer.unwrap(Effect.map(evmAdapters, (evm) => evm.X402SettlementsEvm(rpcUrls, timeoutMs)))

/**
 * x402 payments (ADR 0062): signed by the teams' wallets with viem, their settlements watched on the chains the `X402_*`
 * variables give an endpoint for, every `X402_WATCH_INTERVAL_SECONDS`.
 */
export const x402Payments = Layer.unwrap(
  Effect.map(x402Config, (c) =>
    backgroundJobs(X402Payments.watcher(`${c.watchIntervalSeconds} seconds`)).pipe(
      Layer.provideMerge(X402Payments.layer),
      Layer.provide([x402Signer, x402Settlements(c.rpcUrls, c.rpcTimeoutMs), Layer.succeed(X402Assets, c.assets)])
    )
  )
)

import { AuthorizationDeadline, AuthorizationTolerance, CardNumberKey, CryptoFees, type PayoutRail } from "@svc/domain"
import { type Config, Effect, Layer, Redacted } from "effect"
import type { ServiceConfig } from "./Config.ts"
import { cryptoFeesConfig, cryptoRail, evmRailConfig } from "./config/PaymentsConfig.ts"

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
 * The EVM rail over the `CRYPTO_*` settings of the environment (ADR 0033). Its module (viem, its curves and hashes,
 * about 20 MB resident) is loaded only when the rail is chosen.
 */
export const evmRail = Layer.unwrap(
  Effect.gen(function* () {
    const { EvmRail } = yield* Effect.promise(() => import("@svc/adapters-evm"))
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

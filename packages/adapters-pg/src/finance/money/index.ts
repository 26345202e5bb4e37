import { Layer } from "effect"
import { ExchangeRatesPg } from "./ExchangeRatesPg.ts"

export * from "./ExchangeRatesPg.ts"

/** The money context's ports on Postgres. */
export const MoneyPortsPg = Layer.mergeAll(ExchangeRatesPg)

import { Layer } from "effect"
import { ExchangeRatesMemory } from "./ExchangeRatesMemory.ts"

export * from "./ExchangeRatesMemory.ts"

/** The money context's ports on the in-memory store. */
export const MoneyPortsMemory = Layer.mergeAll(ExchangeRatesMemory)

import { Layer } from "effect"
import { CryptoDestinationsRepoPg } from "./CryptoDestinationsRepoPg.ts"
import { CryptoPayoutsRepoPg } from "./CryptoPayoutsRepoPg.ts"
import { CryptoQuotesRepoPg } from "./CryptoQuotesRepoPg.ts"

export * from "./CryptoDestinationsRepoPg.ts"
export * from "./CryptoPayoutsRepoPg.ts"
export * from "./CryptoQuotesRepoPg.ts"

/** The crypto context's storage ports on Postgres (the payout rail is not storage). */
export const CryptoPortsPg = Layer.mergeAll(CryptoDestinationsRepoPg, CryptoPayoutsRepoPg, CryptoQuotesRepoPg)

import { Layer } from "effect"
import { CryptoDestinationsRepoPg } from "./CryptoDestinationsRepoPg.ts"
import { CryptoQuotesRepoPg } from "./CryptoQuotesRepoPg.ts"

export * from "./CryptoDestinationsRepoPg.ts"
export * from "./CryptoQuotesRepoPg.ts"

/** The crypto context's storage ports on Postgres (the payout rail is not storage). */
export const CryptoPortsPg = Layer.mergeAll(CryptoDestinationsRepoPg, CryptoQuotesRepoPg)

import { Schema, Struct } from "effect"
import { type CryptoDestination, CryptoDestination as Destination } from "./Destination.ts"
import { type CryptoQuote, CryptoQuote as Quote } from "./Quote.ts"

/** An allow-listed destination as its team sees it. */
export const CryptoDestinationView = Schema.Struct({
  id: Destination.fields.id,
  object: Schema.Literal("crypto_destination"),
  ...Struct.omit(Destination.fields, ["id", "teamId"])
})
export type CryptoDestinationView = typeof CryptoDestinationView.Type

export const cryptoDestinationView = ({ teamId: _, ...d }: CryptoDestination): CryptoDestinationView => ({
  ...d,
  object: "crypto_destination"
})

/** A quote as its team sees it: what is charged, what arrives, until when. */
export const CryptoQuoteView = Schema.Struct({
  id: Quote.fields.id,
  object: Schema.Literal("crypto_quote").annotate({ description: "Always `crypto_quote`." }),
  ...Struct.omit(Quote.fields, ["id", "teamId", "spendingKeyId"])
})
export type CryptoQuoteView = typeof CryptoQuoteView.Type

export const cryptoQuoteView = ({ teamId: _, spendingKeyId: __, ...q }: CryptoQuote): CryptoQuoteView => ({
  ...q,
  object: "crypto_quote"
})

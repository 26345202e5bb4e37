import { Schema, Struct } from "effect"
import { Mode, TeamId } from "../shared/model.ts"
import { CryptoDestinationId } from "./Destination.ts"
import { CryptoAsset, CryptoNetwork } from "./Network.ts"

/** A quote's id. */
export const CryptoQuoteId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CryptoQuoteId"))
export type CryptoQuoteId = typeof CryptoQuoteId.Type

/** How long a quote can be paid out, in seconds. */
export const QUOTE_TTL_SECONDS = 60

/**
 * What a quote fixes and its payout carries unchanged: where to (destination, network, asset, the destination's
 * address when quoted), what leaves the spend account (`amount` US cents, fees included), the fees, and what arrives.
 */
export const QuotedTerms = {
  destinationId: CryptoDestinationId,
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String,
  amount: Schema.Int,
  currency: Schema.Literal("USD"),
  serviceFee: Schema.Int,
  networkFee: Schema.Int,
  amountDelivered: Schema.Int,
  /** Base units of the asset, as a decimal integer string. */
  tokenAmount: Schema.String,
  decimals: Schema.Int
} as const

/** The quoted terms of a quote, for the payout that uses it. */
export const quotedTermsOf = (quote: CryptoQuote) => Struct.pick(quote, Struct.keys(QuotedTerms))

/**
 * A price for paying `amount` US cents out to an allow-listed destination: the service fee and the network fee come
 * out of `amount`, and `amountDelivered` (cents) arrives as `tokenAmount` base units of the asset (1 cent = 10^(decimals
 * - 2) base units). Binds amount, asset, network and destination; valid until `expiresAt`; used by at most one payout.
 */
export const CryptoQuote = Schema.Struct({
  id: CryptoQuoteId,
  teamId: TeamId,
  mode: Mode,
  /** The credential that asked for it: only it may pay the quote out. */
  spendingKeyId: Schema.String,
  ...QuotedTerms,
  expiresAt: Schema.String,
  createdAt: Schema.String,
  /** The payout that used it; null while unused. */
  payoutId: Schema.NullOr(Schema.String),
  usedAt: Schema.NullOr(Schema.String)
})
export type CryptoQuote = typeof CryptoQuote.Type

/** No quote of this id for the caller's team in its mode. */
export class CryptoQuoteNotFound extends Schema.TaggedError<CryptoQuoteNotFound>()("CryptoQuoteNotFound", {
  id: Schema.String
}) {}

/** A quote request is malformed or impossible (asset not on the network, amount too small for the fees...). */
export class CryptoQuoteInvalid extends Schema.TaggedError<CryptoQuoteInvalid>()("CryptoQuoteInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The quote cannot be paid out any more: it expired, or a payout used it. */
export class CryptoQuoteNotUsable extends Schema.TaggedError<CryptoQuoteNotUsable>()("CryptoQuoteNotUsable", {
  id: Schema.String,
  reason: Schema.Literals(["expired", "used"])
}) {}

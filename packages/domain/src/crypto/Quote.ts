import { Schema, Struct } from "effect"
import { EXAMPLE_ID, Mode, TeamId } from "../shared/model.ts"
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
  destinationId: CryptoDestinationId.pipe(
    Schema.annotateEncoded({
      description: "The allow-listed destination paid, a UUID.",
      examples: [EXAMPLE_ID]
    })
  ),
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String.annotate({
    description: "The destination's address on the network, as quoted.",
    examples: ["0x52908400098527886E0F7030069857D2E4169EE7"]
  }),
  amount: Schema.Int.annotate({
    description: "What leaves the spend account, fees included, in US cents (1999 is 19.99 USD).",
    examples: [10000]
  }),
  currency: Schema.Literal("USD").annotate({ description: "Always `USD`: payouts are quoted in USD." }),
  serviceFee: Schema.Int.annotate({
    description: "The service's fee, taken out of `amount`, in US cents (1999 is 19.99 USD).",
    examples: [50]
  }),
  networkFee: Schema.Int.annotate({
    description: "The network's fee, taken out of `amount`, in US cents (1999 is 19.99 USD).",
    examples: [12]
  }),
  amountDelivered: Schema.Int.annotate({
    description: "What arrives, `amount` minus the fees, in US cents (1999 is 19.99 USD).",
    examples: [9938]
  }),
  /** Base units of the asset, as a decimal integer string. */
  tokenAmount: Schema.String.annotate({
    description:
      "What arrives in base units of the asset, a decimal integer string (1 cent is 10^(decimals - 2) base units).",
    examples: ["99380000"]
  }),
  decimals: Schema.Int.annotate({ description: "The asset's decimals on the network (6 for USDC).", examples: [6] })
} as const

/** The quoted terms of a quote, for the payout that uses it. */
export const quotedTermsOf = (quote: CryptoQuote) => Struct.pick(quote, Struct.keys(QuotedTerms))

/**
 * A price for paying `amount` US cents out to an allow-listed destination: the service fee and the network fee come
 * out of `amount`, and `amountDelivered` (cents) arrives as `tokenAmount` base units of the asset (1 cent = 10^(decimals
 * - 2) base units). Binds amount, asset, network and destination; valid until `expiresAt`; used by at most one payout.
 */
export const CryptoQuote = Schema.Struct({
  id: CryptoQuoteId.pipe(
    Schema.annotateEncoded({
      description: "The quote's id, a UUID.",
      examples: [EXAMPLE_ID]
    })
  ),
  teamId: TeamId,
  mode: Mode,
  /** The credential that asked for it: only it may pay the quote out. */
  spendingKeyId: Schema.String,
  ...QuotedTerms,
  expiresAt: Schema.String.annotate({
    description: "Until when the quote can be paid out, 60 seconds after it was made (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  createdAt: Schema.String.annotate({
    description: "When the quote was made (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  /** The payout that used it; null while unused. */
  payoutId: Schema.NullOr(Schema.String).annotate({
    description: "The payout that used the quote, a UUID; null while unused.",
    examples: [EXAMPLE_ID]
  }),
  usedAt: Schema.NullOr(Schema.String).annotate({
    description: "When a payout used the quote (ISO 8601, UTC); null while unused."
  })
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

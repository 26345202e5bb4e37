import { Schema } from "effect"

/** The card issuer names an authorization this service never decided. */
export class CardAuthorizationNotFound extends Schema.TaggedError<CardAuthorizationNotFound>()(
  "CardAuthorizationNotFound",
  { token: Schema.String }
) {}

/** The card issuer names a card this service never issued. */
export class CardNotFound extends Schema.TaggedError<CardNotFound>()("CardNotFound", { cardToken: Schema.String }) {}

/**
 * A clearing this service cannot post by itself: more than the authorization holds, another currency, or an
 * authorization that holds nothing (declined or reversed). It is parked for a person to review.
 */
export class CardClearingUnmatched extends Schema.TaggedError<CardClearingUnmatched>()("CardClearingUnmatched", {
  token: Schema.String,
  message: Schema.String
}) {}

/**
 * A refund this service cannot post by itself: of an authorization not cleared, in another currency, or more than was
 * cleared and not refunded yet. It is parked for a person to review.
 */
export class CardRefundUnmatched extends Schema.TaggedError<CardRefundUnmatched>()("CardRefundUnmatched", {
  token: Schema.String,
  message: Schema.String
}) {}

/**
 * An advice this service cannot hold by itself: an increase beyond what the spend account has available (it never goes
 * below zero). It is parked for a person to review.
 */
export class CardAdviceUnmatched extends Schema.TaggedError<CardAdviceUnmatched>()("CardAdviceUnmatched", {
  token: Schema.String,
  message: Schema.String
}) {}

/** Why the card issuer's later event on an authorization or a card was not applied. */
export type CardEventRefusal =
  | CardAuthorizationNotFound
  | CardNotFound
  | CardAdviceUnmatched
  | CardClearingUnmatched
  | CardRefundUnmatched

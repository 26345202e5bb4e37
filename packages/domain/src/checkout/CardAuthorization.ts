import { Schema } from "effect"
import { LedgerTransactionId, Mode, millisOfIso } from "../shared/model.ts"
import type { Card } from "./Card.ts"
import type { CheckoutIntent } from "./CheckoutIntent.ts"

/** Why an authorization is declined, in the order the checks run. */
export const DeclineReason = Schema.Literals([
  "card_not_found",
  "card_inactive",
  "intent_not_approved",
  "intent_expired",
  "currency_mismatch",
  "amount_over_intent",
  "merchant_mismatch",
  "insufficient_funds"
])
export type DeclineReason = typeof DeclineReason.Type

/** The decline reason answered when no decision could be reached in time (the database is down or slow). */
export const UNAVAILABLE_DECLINE_REASON = "card_issuing_unavailable"

/** The issuer's real-time authorization request (the auth-stream body). */
export const CardAuthorizationRequest = Schema.Struct({
  /** The authorization's own id at the issuer; a replay carries the same token. */
  token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  card_token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  amount: Schema.Int.check(Schema.isGreaterThan(0)),
  currency: Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/u)),
  merchant: Schema.Struct({
    descriptor: Schema.String.check(Schema.isMaxLength(255)),
    mcc: Schema.optionalKey(Schema.NullOr(Schema.String)),
    country: Schema.optionalKey(Schema.NullOr(Schema.String))
  })
})
export type CardAuthorizationRequest = typeof CardAuthorizationRequest.Type

/** The answer the issuer gets: always 200 JSON once the signature holds. */
export const CardAuthorizationAnswer = Schema.Struct({
  approve_response: Schema.Literals(["APPROVED", "DECLINED"]),
  decline_reason: Schema.optionalKey(Schema.String)
})
export type CardAuthorizationAnswer = typeof CardAuthorizationAnswer.Type

/**
 * `approved` (its hold reserves the money) -> `reversed` (the issuer's advice released it) or `cleared` (posted);
 * `declined` is final at once.
 */
export const CardAuthorizationStatus = Schema.Literals(["approved", "declined", "reversed", "cleared"])
export type CardAuthorizationStatus = typeof CardAuthorizationStatus.Type

/** One authorization as decided and stored, keyed by the issuer's token: a replay answers this decision. */
export const CardAuthorization = Schema.Struct({
  token: Schema.String,
  cardToken: Schema.String,
  /** The card's team, mode and intent; null when the card was not found. */
  teamId: Schema.NullOr(Schema.String),
  mode: Schema.NullOr(Mode),
  intentId: Schema.NullOr(Schema.String),
  status: CardAuthorizationStatus,
  declineReason: Schema.NullOr(Schema.String),
  amount: Schema.Int,
  currency: Schema.String,
  merchantDescriptor: Schema.String,
  merchantMcc: Schema.NullOr(Schema.String),
  merchantCountry: Schema.NullOr(Schema.String),
  /** The hold reserving the money while approved (code `card_authorization`, reference the token). */
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  /** What is held now: the amount approved, changed by advice, 0 once released or cleared. */
  heldAmount: Schema.Int,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CardAuthorization = typeof CardAuthorization.Type

/** The answer of a stored decision. */
export const authorizationAnswerOf = (
  authorization: Pick<CardAuthorization, "status" | "declineReason">
): CardAuthorizationAnswer =>
  authorization.status === "declined"
    ? { approve_response: "DECLINED", decline_reason: authorization.declineReason ?? UNAVAILABLE_DECLINE_REASON }
    : { approve_response: "APPROVED" }

/** A merchant name or descriptor reduced to what card networks keep: upper-case letters and digits. */
const merchantKey = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/gu, "")

/**
 * Whether the descriptor an authorization names is the intent's merchant: one reduced name contains the other
 * (networks truncate and decorate descriptors), the MCC equals the intent's when the intent gave one, and the country
 * likewise.
 */
export const merchantMatches = (
  intent: Pick<CheckoutIntent, "merchant">,
  request: CardAuthorizationRequest
): boolean => {
  const wanted = merchantKey(intent.merchant.name)
  const seen = merchantKey(request.merchant.descriptor)
  if (wanted.length === 0 || seen.length === 0 || !(seen.includes(wanted) || wanted.includes(seen))) return false
  if (intent.merchant.mcc !== null && request.merchant.mcc !== intent.merchant.mcc) return false
  if (intent.merchant.country !== null && request.merchant.country !== intent.merchant.country) return false
  return true
}

/**
 * The contract's checks of an authorization, in order, on the card and intent read under their locks at `now`; the
 * funds check is the ledger's, when it plans the hold. `tolerance` is what an authorization may exceed the intent by
 * (tips, tax), in minor units.
 */
export const authorizationCheck = (
  request: CardAuthorizationRequest,
  found: { readonly card: Card; readonly intent: CheckoutIntent } | undefined,
  now: number,
  tolerance: number
): DeclineReason | undefined => {
  if (found === undefined) return "card_not_found"
  const { card, intent } = found
  if (card.status !== "active") return "card_inactive"
  if (intent.status === "expired") return "intent_expired"
  if (intent.status !== "approved") return "intent_not_approved"
  if (millisOfIso(intent.expiresAt) <= now) return "intent_expired"
  if (request.currency !== intent.currency) return "currency_mismatch"
  if (request.amount > intent.amount + tolerance) return "amount_over_intent"
  if (!merchantMatches(intent, request)) return "merchant_mismatch"
  return undefined
}

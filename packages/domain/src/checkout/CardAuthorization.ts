import { Schema } from "effect"
import { EXAMPLE_ID, LedgerTransactionId, Mode, millisOfIso } from "../shared/model.ts"
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
  /** What the issuer refunded of it once cleared (at most the cleared amount). */
  refundedAmount: Schema.Int,
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

/** An authorization as the test-mode helpers answer it: what was decided, what it holds now. */
export const CardAuthorizationView = Schema.Struct({
  object: Schema.Literal("card_authorization").annotate({ description: "Always `card_authorization`." }),
  id: Schema.String.annotate({
    description: "The authorization's id at the card issuer (its token); later advice, clearing and refunds name it.",
    examples: ["7c0f3ad2-5b1e-4c8e-9a51-2f6d0e4b9c17"]
  }),
  cardId: Schema.String.annotate({ description: "The card authorized, a UUID.", examples: [EXAMPLE_ID] }),
  intentId: Schema.String.annotate({ description: "The card's checkout intent, a UUID.", examples: [EXAMPLE_ID] }),
  decision: Schema.Literals(["APPROVED", "DECLINED"]).annotate({
    description: "What the service answered the issuer, the same decision the auth-stream takes.",
    examples: ["APPROVED"]
  }),
  declineReason: Schema.NullOr(Schema.String).annotate({
    description:
      "Why it was declined (`card_inactive`, `intent_not_approved`, `intent_expired`, `currency_mismatch`, `amount_over_intent`, `merchant_mismatch`, `insufficient_funds`); null when approved.",
    examples: ["amount_over_intent"]
  }),
  status: CardAuthorizationStatus.annotate({
    description:
      "`approved` (its hold reserves the money), `declined`, `reversed` (the hold released) or `cleared` (posted; refunds may follow).",
    examples: ["approved"]
  }),
  amount: Schema.Int.annotate({
    description: "The amount first asked for, in minor units of `currency`.",
    examples: [2500]
  }),
  heldAmount: Schema.Int.annotate({
    description: "What the authorization holds now, in minor units: 0 once released or cleared.",
    examples: [2500]
  }),
  refundedAmount: Schema.Int.annotate({
    description: "What the merchant refunded once it was cleared, in minor units.",
    examples: [500]
  }),
  currency: Schema.String.annotate({ description: "The ISO 4217 code of the amounts.", examples: ["USD"] }),
  merchant: Schema.Struct({
    descriptor: Schema.String.annotate({ description: "The merchant's descriptor.", examples: ["ACME BOOKS #42"] }),
    mcc: Schema.NullOr(Schema.String).annotate({ description: "The merchant category code.", examples: ["5942"] }),
    country: Schema.NullOr(Schema.String).annotate({ description: "The merchant's country.", examples: ["US"] })
  }).annotate({ description: "The merchant the authorization named." }),
  createdAt: Schema.String.annotate({
    description: "When it was decided (ISO 8601, UTC).",
    examples: ["2026-11-29T10:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When it last changed (ISO 8601, UTC).",
    examples: ["2026-11-29T10:05:00.000Z"]
  })
})
export type CardAuthorizationView = typeof CardAuthorizationView.Type

/** The view of a stored authorization on the card `cardId`. */
export const cardAuthorizationView = (
  authorization: CardAuthorization & { readonly intentId: string },
  cardId: string
): CardAuthorizationView => ({
  object: "card_authorization",
  id: authorization.token,
  cardId,
  intentId: authorization.intentId,
  decision: authorizationAnswerOf(authorization).approve_response,
  declineReason: authorization.status === "declined" ? authorization.declineReason : null,
  status: authorization.status,
  amount: authorization.amount,
  heldAmount: authorization.heldAmount,
  refundedAmount: authorization.refundedAmount,
  currency: authorization.currency,
  merchant: {
    descriptor: authorization.merchantDescriptor,
    mcc: authorization.merchantMcc,
    country: authorization.merchantCountry
  },
  createdAt: authorization.createdAt,
  updatedAt: authorization.updatedAt
})

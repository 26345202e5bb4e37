import { Schema } from "effect"
import { EXAMPLE_ID, Mode, TeamId } from "../shared/model.ts"

/** A card's id in this service. */
export const CardId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CardId"))
export type CardId = typeof CardId.Type

/** `active` cards may be authorized; `inactive` (frozen by the issuer) and `closed` ones are declined. */
export const CardStatus = Schema.Literals(["active", "inactive", "closed"])
export type CardStatus = typeof CardStatus.Type

/** What identifies a card without its secrets: shown in intents, answered to a repeated credentials request. */
export const CardReference = Schema.Struct({
  id: Schema.String.annotate({
    description: "The card's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  last4: Schema.String.annotate({ description: "The last four digits of the card number.", examples: ["4242"] }),
  brand: Schema.String.annotate({ description: "The card network.", examples: ["visa"] }),
  expMonth: Schema.Int.annotate({ description: "The card's expiry month, 1..12.", examples: [12] }),
  expYear: Schema.Int.annotate({ description: "The card's expiry year, four digits.", examples: [2027] })
})
export type CardReference = typeof CardReference.Type

/**
 * A single-use virtual card issued for one intent, as stored: the issuer's token (how authorizations name it), the
 * reference, and an HMAC-SHA256 of its number under the service's card key, to recognise the number without
 * keeping it. The number and CVC are never stored.
 */
export const Card = Schema.Struct({
  id: CardId,
  teamId: TeamId,
  mode: Mode,
  intentId: Schema.String,
  /** The issuer's token for the card; authorizations and issuer events name the card by it. */
  token: Schema.String,
  status: CardStatus,
  last4: Schema.String,
  brand: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  /** Hex HMAC-SHA256 of the card number under `CardNumberKey`. */
  numberHash: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Card = typeof Card.Type

/** The card's reference. */
export const cardReference = (card: Card): CardReference => ({
  id: card.id,
  last4: card.last4,
  brand: card.brand,
  expMonth: card.expMonth,
  expYear: card.expYear
})

/** A card's state as the test-mode helpers answer it, never its number. */
export const CardView = Schema.Struct({
  object: Schema.Literal("card").annotate({ description: "Always `card`." }),
  ...CardReference.fields,
  intentId: Schema.String.annotate({ description: "The card's checkout intent, a UUID.", examples: [EXAMPLE_ID] }),
  status: CardStatus.annotate({
    description: "`active` (may be authorized), `inactive` (frozen) or `closed` (for good).",
    examples: ["active"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When its state last changed (ISO 8601, UTC).",
    examples: ["2026-11-29T10:05:00.000Z"]
  })
})
export type CardView = typeof CardView.Type

/** The view of a stored card. */
export const cardView = (card: Card): CardView => ({
  object: "card",
  ...cardReference(card),
  intentId: card.intentId,
  status: card.status,
  updatedAt: card.updatedAt
})

/**
 * The answer to a credentials request. The first one carries the number and CVC, once; a repeated request answers
 * the same card without them (`number` and `cvc` absent).
 */
export const CardCredentials = Schema.Struct({
  cardId: CardReference.fields.id,
  number: Schema.optionalKey(
    Schema.String.annotate({
      description: "The full card number; on the first answer only, never again.",
      examples: ["4242424242424242"]
    })
  ),
  cvc: Schema.optionalKey(
    Schema.String.annotate({
      description: "The card's security code; on the first answer only, never again.",
      examples: ["123"]
    })
  ),
  expMonth: CardReference.fields.expMonth,
  expYear: CardReference.fields.expYear,
  last4: CardReference.fields.last4,
  brand: CardReference.fields.brand
})
export type CardCredentials = typeof CardCredentials.Type

/** The card issuer is unreachable or refused; the intent keeps no card and the agent may ask again. */
export class CardIssuerUnavailable extends Schema.TaggedError<CardIssuerUnavailable>()("CardIssuerUnavailable", {
  message: Schema.String
}) {}

/** Whether a card number passes the Luhn check. */
export const luhnValid = (number: string): boolean => {
  if (!/^[0-9]{12,19}$/u.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

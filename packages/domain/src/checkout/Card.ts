import { Schema } from "effect"
import { Mode, TeamId } from "../shared/model.ts"

/** A card's id in this service. */
export const CardId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CardId"))
export type CardId = typeof CardId.Type

/** `active` cards may be authorized; `inactive` (frozen by the issuer) and `closed` ones are declined. */
export const CardStatus = Schema.Literals(["active", "inactive", "closed"])
export type CardStatus = typeof CardStatus.Type

/** What identifies a card without its secrets: shown in intents, answered to a repeated credentials request. */
export const CardReference = Schema.Struct({
  id: Schema.String,
  last4: Schema.String,
  brand: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int
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

/**
 * The answer to a credentials request. The first one carries the number and CVC, once; a repeated request answers
 * the same card without them (`number` and `cvc` absent).
 */
export const CardCredentials = Schema.Struct({
  cardId: Schema.String,
  number: Schema.optionalKey(Schema.String),
  cvc: Schema.optionalKey(Schema.String),
  expMonth: Schema.Int,
  expYear: Schema.Int,
  last4: Schema.String,
  brand: Schema.String
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

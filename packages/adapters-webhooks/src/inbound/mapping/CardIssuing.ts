import {
  AmountMinor,
  CardAuthorizationAdvised,
  CardStatus,
  CardStatusReported,
  CardTransactionCleared,
  CardTransactionRefunded,
  Currency,
  PositiveAmountMinor
} from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Ignored, Required } from "./EventMapping.ts"

/** `authorization.advice` data: the authorization's new amount, 0 when the issuer reversed it. */
const AdviceData = Schema.Struct({ token: Required(255), amount: AmountMinor })

/** `transaction` data: the clearing of an authorization. */
const TransactionData = Schema.Struct({
  id: Required(255),
  token: Required(255),
  amount: PositiveAmountMinor,
  currency: Currency
})

/** `refund` data: a refund of a cleared authorization. */
const RefundData = TransactionData

/** `card.*` data: the card's state at the issuer. */
const CardData = Schema.Struct({ card_token: Required(255), status: CardStatus })

/**
 * card-issuing-a: `authorization.advice` adjusts or releases an authorization's hold, `transaction` clears it,
 * `refund` gives part or all of a cleared one back, and every `card.*` event reports a card's state. Authorizations themselves come on the auth stream, answered at once.
 */
export const cardIssuingAEvents: EventMapping = (event) => {
  if (event.type === "authorization.advice") {
    return decodePart(
      AdviceData,
      "authorization advice"
    )(event.payload.data).pipe(
      Result.map((data) => new CardAuthorizationAdvised({ token: data.token, amount: data.amount }))
    )
  }
  if (event.type === "transaction") {
    return decodePart(
      TransactionData,
      "transaction data"
    )(event.payload.data).pipe(
      Result.map(
        (data) =>
          new CardTransactionCleared({
            transactionId: data.id,
            token: data.token,
            amount: data.amount,
            currency: data.currency
          })
      )
    )
  }
  if (event.type === "refund") {
    return decodePart(
      RefundData,
      "refund data"
    )(event.payload.data).pipe(
      Result.map(
        (data) =>
          new CardTransactionRefunded({
            refundId: data.id,
            token: data.token,
            amount: data.amount,
            currency: data.currency
          })
      )
    )
  }
  if (event.type.startsWith("card.")) {
    return decodePart(
      CardData,
      "card data"
    )(event.payload.data).pipe(
      Result.map((data) => new CardStatusReported({ cardToken: data.card_token, status: data.status }))
    )
  }
  return Result.succeed(Ignored)
}

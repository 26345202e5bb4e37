import { InvoicePaymentSucceeded, KnownCurrency, PositiveAmountMinor } from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Ignored, Required } from "./EventMapping.ts"

/**
 * payments `payment_intent.succeeded` data: the provider's payment intent, with its amount in minor units, its
 * currency (the provider writes it in lower case) and the invoice it pays in `metadata.invoice_id`.
 */
const PaymentIntentData = Schema.Struct({
  object: Schema.Struct({
    id: Required(255),
    amount: PositiveAmountMinor,
    currency: Required(3),
    metadata: Schema.Struct({ invoice_id: Schema.String.check(Schema.isUUID()) })
  })
})

/** payments: a succeeded payment intent pays the invoice its metadata names; other events are stored only. */
export const paymentsEvents: EventMapping = (event) => {
  switch (event.type) {
    case "payment_intent.succeeded":
      return decodePart(
        PaymentIntentData,
        "payment intent data"
      )(event.payload.data).pipe(
        Result.flatMap(({ object }) =>
          decodePart(
            KnownCurrency,
            "payment intent currency"
          )(object.currency.toUpperCase()).pipe(
            Result.map(
              (currency) =>
                new InvoicePaymentSucceeded({
                  provider: event.endpoint,
                  paymentIntentId: object.id,
                  invoiceId: object.metadata.invoice_id,
                  amountMinor: object.amount,
                  currency
                })
            )
          )
        )
      )
    default:
      return Result.succeed(Ignored)
  }
}

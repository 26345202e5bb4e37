import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, InternalError, NotFound, ServiceUnavailable } from "../../shared/index.ts"

/** What POST /invoice-payments/payment-intent answers: the provider's intent for the invoice's total. */
export const PaymentIntentResponse = Schema.Struct({
  paymentIntentId: Schema.String,
  clientSecret: Schema.String,
  invoiceId: Schema.String,
  invoiceNumber: Schema.String,
  amount: Schema.Finite,
  currency: Schema.String
})

/** Paying an invoice from its public page: no credential, the invoice's token. */
export class InvoicePaymentsApi extends HttpApiGroup.make("invoicePayments").add(
  HttpApiEndpoint.post("paymentIntent", "/invoice-payments/payment-intent", {
    payload: Schema.Struct({ token: Schema.String.check(Schema.isBetweenLength(1, 200)) }),
    success: PaymentIntentResponse,
    error: [BadRequest, NotFound, Conflict, InternalError, ServiceUnavailable]
  })
    .annotate(OpenApi.Summary, "Open a payment of an invoice by its public token")
    .annotate(
      OpenApi.Description,
      "Public: the invoice `token` is the credential. An unknown token is 404; an invoice that is not sent and " +
        "unpaid (draft, scheduled, paid, canceled) is 409 `invoice_not_payable`. The payment is confirmed by the " +
        "payments provider's `payment_intent.succeeded` event on /webhook/payments."
    )
) {}

import { Invoices, invoiceTotals, renderMinor } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { conflict, notFound } from "../../../api/shared/index.ts"
import { orServiceUnavailable } from "../../shared/index.ts"

export const InvoicePaymentsHttp = HttpApiBuilder.group(Api, "invoicePayments", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* Invoices
    return handlers.handle("paymentIntent", ({ payload }) =>
      Effect.gen(function* () {
        const { invoice, intent } = yield* invoices.paymentIntent(payload.token)
        return {
          paymentIntentId: intent.id,
          clientSecret: intent.clientSecret,
          invoiceId: invoice.id,
          invoiceNumber: invoice.invoiceNumber,
          amount: renderMinor(invoiceTotals(invoice).totalMinor, invoice.currency),
          currency: invoice.currency
        }
      }).pipe(
        Effect.catchTags({
          InvoiceNotFound: () => Effect.fail(notFound("no invoice has this token")),
          InvoiceStatusConflict: (e) => Effect.fail(conflict("invoice_not_payable", e.message))
        }),
        orServiceUnavailable
      )
    )
  })
)

import { FileKeys, type Invoice, Invoices } from "@svc/domain"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { badRequest, notFound, unauthorized } from "../../../api/shared/index.ts"
import { contentDisposition, orServiceUnavailable } from "../../shared/index.ts"

export const InvoiceDownloadHttp = HttpApiBuilder.group(Api, "invoiceDownload", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* Invoices
    const fileKeys = yield* FileKeys

    /** The invoice the query opens: by id with the team's file key, or by public token. */
    const open = (query: { readonly id?: string; readonly fk?: string; readonly token?: string }) =>
      Effect.gen(function* () {
        if (query.id !== undefined) {
          const fk = query.fk
          if (fk === undefined) return yield* unauthorized("fk is required with id")
          const invoice: Invoice = yield* invoices.byId(query.id)
          if (!(yield* fileKeys.opens(invoice.teamId, fk))) {
            return yield* unauthorized("fk is not the file key of the invoice's team")
          }
          return invoice
        }
        if (query.token !== undefined) return yield* invoices.byToken(query.token)
        return yield* badRequest("validation_failed", "give id and fk, or token", [
          { path: "token", message: "give id and fk, or token" }
        ])
      })

    return handlers.handle("downloadInvoice", ({ query }) =>
      Effect.gen(function* () {
        const invoice = yield* open(query)
        const kind = query.type ?? "invoice"
        const pdf = yield* invoices.document(invoice, kind)
        const filename = `${invoice.invoiceNumber}${kind === "receipt" ? "-receipt" : ""}.pdf`
        return HttpServerResponse.uint8Array(pdf, {
          contentType: "application/pdf",
          headers: {
            "content-disposition": contentDisposition(query.preview === "true" ? "inline" : "attachment", filename),
            "cache-control": "private, no-store"
          }
        })
      }).pipe(
        Effect.catchTags({
          InvoiceNotFound: () => Effect.fail(notFound("invoice not found")),
          ReceiptUnavailable: (e) =>
            Effect.fail(
              badRequest("receipt_unavailable", `a receipt exists only for a paid invoice; this one is ${e.status}`)
            ),
          // An invoice's team exists as long as the invoice does (a foreign key).
          TeamNotFound: Effect.die
        }),
        orServiceUnavailable
      )
    )
  })
)

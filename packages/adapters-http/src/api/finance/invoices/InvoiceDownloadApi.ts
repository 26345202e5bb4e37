import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, InternalError, NotFound, ServiceUnavailable, Unauthorized, UuidParam } from "../../shared/index.ts"

/** The PDF of an invoice or receipt. */
export const InvoicePdf = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" }))

/** Downloading an invoice's PDF: by id with the team file key, or by the invoice's public token. */
export class InvoiceDownloadApi extends HttpApiGroup.make("invoiceDownload").add(
  HttpApiEndpoint.get("downloadInvoice", "/files/download/invoice", {
    query: {
      id: Schema.optionalKey(UuidParam),
      fk: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 200))),
      token: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 200))),
      preview: Schema.optionalKey(Schema.Literals(["true", "false"])),
      type: Schema.optionalKey(Schema.Literals(["invoice", "receipt"]))
    },
    success: InvoicePdf,
    error: [BadRequest, Unauthorized, NotFound, InternalError, ServiceUnavailable]
  })
    .annotate(OpenApi.Summary, "Download an invoice or its receipt as PDF")
    .annotate(
      OpenApi.Description,
      "With `id`, `fk` (the team file key of GET /users/me) is required and must be the invoice's team's, else " +
        "401. With `token` alone access is public; an unknown token is 404. `preview=true` answers inline, else as " +
        "an attachment named after the invoice number. `type=receipt` is the receipt of a paid invoice (400 " +
        "`receipt_unavailable` otherwise)."
    )
) {}

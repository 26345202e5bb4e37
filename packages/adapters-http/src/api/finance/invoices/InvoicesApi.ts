import {
  CalendarDate,
  EXAMPLE_ID,
  InvoicePaymentStatus,
  InvoiceStatus,
  InvoiceSummary,
  InvoiceTarget,
  InvoiceView,
  KnownCurrency,
  Quantity,
  RatePercent
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** An invoice as answered. */
export const InvoiceResponse = InvoiceView

/** An instant in ISO 8601 UTC (`2026-12-01T09:00:00Z`). */
export const Instant = Schema.String.annotate({
  description: "An instant in ISO 8601 UTC.",
  examples: ["2026-12-01T09:00:00Z"]
}).check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/u, {
    message: "expected an ISO 8601 UTC timestamp, e.g. 2026-12-01T09:00:00Z"
  }),
  Schema.makeFilter((text: string) => !Number.isNaN(Date.parse(text)), { message: "expected a real instant" })
)

const Text = (max: number) =>
  Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, max, { message: `expected 1 to ${max} characters` })
  )

const InvoiceNumber = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,49}$/u, {
    message: "expected 1 to 50 letters, digits, '.', '_', '/' or '-', starting with a letter or digit"
  })
).annotate({
  description: "The invoice's number: 1 to 50 letters, digits, '.', '_', '/' or '-', starting with a letter or digit.",
  examples: ["INV-2026-014"]
})

const Amount = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0, { message: "expected an amount of 0 or more" }))

const LineItem = Schema.Struct({
  name: Text(500).annotate({
    description: "What is billed (1..500 characters).",
    examples: ["Design retainer, March"]
  }),
  quantity: Quantity,
  unitPrice: Amount.annotate({
    description: "The price of one unit in major units of the invoice's currency, 0 or more: 19.99 is 19.99 USD.",
    examples: [1500]
  }),
  taxRate: Schema.optionalKey(
    Schema.NullOr(RatePercent).annotate({
      description: "The line's tax rate in percent (20 is 20 %); null for none.",
      examples: [8.5]
    })
  ),
  vatRate: Schema.optionalKey(
    Schema.NullOr(RatePercent).annotate({
      description: "The line's VAT rate in percent (20 is 20 %); null for none.",
      examples: [20]
    })
  )
})

const LineItems = Schema.Array(LineItem)
  .check(Schema.isMaxLength(100, { message: "expected at most 100 line items" }))
  .annotate({ description: "What the invoice bills, at most 100 lines; the totals are computed from them." })

const Note = Schema.NullOr(Schema.String.check(Schema.isMaxLength(5000))).annotate({
  description: "A note printed on the invoice for the customer (at most 5000 characters); null for none.",
  examples: ["Thank you for your business."]
})
const InternalNote = Note.annotate({
  description:
    "The team's own note (at most 5000 characters): answered on these routes only, never on the PDF or to the customer."
})

const Discount = Amount.annotate({
  description: "An amount taken off the total, in major units of the invoice's currency, 0 or more: 10 is 10.00 USD.",
  examples: [100]
})

const content = {
  customerId: UuidParam.annotate({
    description: "The team's customer billed, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  currency: KnownCurrency,
  issueDate: CalendarDate,
  dueDate: CalendarDate,
  lineItems: LineItems
}

export const CreateInvoiceRequest = Schema.Struct({
  invoiceNumber: Schema.optionalKey(InvoiceNumber),
  customerId: content.customerId,
  currency: Schema.optionalKey(content.currency),
  issueDate: Schema.optionalKey(content.issueDate),
  dueDate: Schema.optionalKey(content.dueDate),
  lineItems: Schema.optionalKey(content.lineItems),
  discount: Schema.optionalKey(Discount),
  note: Schema.optionalKey(Note),
  internalNote: Schema.optionalKey(InternalNote)
})

export const UpdateInvoiceRequest = Schema.Struct({
  invoiceNumber: Schema.optionalKey(InvoiceNumber),
  customerId: Schema.optionalKey(content.customerId),
  currency: Schema.optionalKey(content.currency),
  issueDate: Schema.optionalKey(content.issueDate),
  dueDate: Schema.optionalKey(content.dueDate),
  lineItems: Schema.optionalKey(content.lineItems),
  discount: Schema.optionalKey(Discount),
  note: Schema.optionalKey(Note),
  internalNote: Schema.optionalKey(InternalNote),
  status: Schema.optionalKey(InvoiceTarget),
  paidAt: Schema.optionalKey(Instant)
})

/** What DELETE answers: the id of the invoice that is gone. */
export const DeletedInvoice = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("invoice"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's invoices: session, OAuth or generic API key, by scope. */
export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    HttpApiEndpoint.get("list", "/invoices", {
      query: {
        ...ListQuery,
        status: Schema.optionalKey(InvoiceStatus),
        customerId: Schema.optionalKey(UuidParam)
      },
      success: ListOf(InvoiceResponse),
      error: errors
    })
      .annotate(RequiredScope, "invoices.read")
      .annotate(OpenApi.Summary, "List invoices")
      .annotate(
        OpenApi.Description,
        "The team's invoices, newest first; `status` keeps those in that status now (`overdue`: unpaid past the due date)."
      ),
    HttpApiEndpoint.post("create", "/invoices", {
      payload: CreateInvoiceRequest,
      success: InvoiceResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "invoices.write")
      .annotate(OpenApi.Summary, "Create an invoice (a draft)")
      .annotate(
        OpenApi.Description,
        "Amounts are decimal numbers in major units of `currency`, with at most its minor-unit decimals. Without " +
          "`invoiceNumber` the team's next number is used (`INV-0001`, `INV-0002`, ... without gaps, even under concurrent " +
          "creation); a number the team already has is 409 `invoice_number_taken`. Each line is quantity x unit price, " +
          "its tax and VAT are its rates of that amount (rounded half away from zero per line); total = subtotal - " +
          "discount + tax + VAT. Only `customerId` is required: `currency` defaults to the team's base currency, " +
          "`issueDate` to today (UTC), `dueDate` to 30 days after the issue date, `lineItems` to none; an invoice " +
          "without line items cannot be sent or paid (409)."
      ),
    HttpApiEndpoint.get("summary", "/invoices/summary", {
      query: { currency: Schema.optionalKey(KnownCurrency) },
      success: InvoiceSummary,
      error: errors
    })
      .annotate(RequiredScope, "invoices.read")
      .annotate(OpenApi.Summary, "Invoice totals per status")
      .annotate(
        OpenApi.Description,
        "Count and total of the team's invoices in `currency` (the team's base currency unless given) per status, " +
          "every status listed."
      ),
    HttpApiEndpoint.get("paymentStatus", "/invoices/payment-status", {
      success: InvoicePaymentStatus,
      error: errors
    })
      .annotate(RequiredScope, "invoices.read")
      .annotate(OpenApi.Summary, "How well the team's invoices get paid")
      .annotate(
        OpenApi.Description,
        "Of the invoices paid or overdue: paid by the due date, paid late, overdue now; `score` is the percentage " +
          "paid on time (null without any), `status` is `good` from 80, `average` from 50, else `bad` (`none` " +
          "without any)."
      ),
    HttpApiEndpoint.get("get", "/invoices/:id", {
      params: id,
      success: InvoiceResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "invoices.read")
      .annotate(OpenApi.Summary, "Get an invoice"),
    HttpApiEndpoint.put("update", "/invoices/:id", {
      params: id,
      payload: UpdateInvoiceRequest,
      success: InvoiceResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "invoices.write")
      .annotate(OpenApi.Summary, "Update an invoice or change its status")
      .annotate(
        OpenApi.Description,
        "Each content field given replaces the stored one (not on a paid or canceled invoice). `status` moves it: " +
          "draft or scheduled to `unpaid` (sent), unpaid or overdue to `paid` (`paidAt` defaults to now), anything " +
          "not paid to `canceled`; paid and canceled are final. A move not allowed is 409 `invalid_status_transition`."
      ),
    HttpApiEndpoint.delete("delete", "/invoices/:id", {
      params: id,
      success: DeletedInvoice,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "invoices.write")
      .annotate(OpenApi.Summary, "Delete a draft or canceled invoice"),
    HttpApiEndpoint.post("send", "/invoices/:id/send", {
      params: id,
      query: { scheduledAt: Schema.optionalKey(Instant) },
      success: InvoiceResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "invoices.write")
      .annotate(OpenApi.Summary, "Send a draft invoice")
      .annotate(
        OpenApi.Description,
        "The draft becomes `unpaid` now, or `scheduled` until `scheduledAt` when that is in the future (it counts as " +
          "sent from then on)."
      )
  )
  .middleware(PlatformAuth) {}

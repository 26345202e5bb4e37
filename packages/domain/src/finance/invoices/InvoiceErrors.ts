import { Schema } from "effect"

/** The team has no invoice with that id (or no invoice has that public token). */
export class InvoiceNotFound extends Schema.TaggedError<InvoiceNotFound>()("InvoiceNotFound", {
  id: Schema.String
}) {}

/** A field of an invoice request is not acceptable (a date order, a discount above the subtotal, ...). */
export class InvalidInvoice extends Schema.TaggedError<InvalidInvoice>()("InvalidInvoice", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The team already has an invoice with that number. */
export class DuplicateInvoiceNumber extends Schema.TaggedError<DuplicateInvoiceNumber>()("DuplicateInvoiceNumber", {
  invoiceNumber: Schema.String
}) {}

/** The invoice's status does not allow what was asked (a transition, an edit, a deletion, a payment). */
export class InvoiceStatusConflict extends Schema.TaggedError<InvoiceStatusConflict>()("InvoiceStatusConflict", {
  id: Schema.String,
  status: Schema.String,
  message: Schema.String
}) {}

/** A receipt exists only for a paid invoice. */
export class ReceiptUnavailable extends Schema.TaggedError<ReceiptUnavailable>()("ReceiptUnavailable", {
  id: Schema.String,
  status: Schema.String
}) {}

/** A provider's payment does not match the invoice it names (amount or currency). */
export class InvoicePaymentMismatch extends Schema.TaggedError<InvoicePaymentMismatch>()("InvoicePaymentMismatch", {
  id: Schema.String,
  message: Schema.String
}) {}

import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import {
  CalendarDate,
  decimalOf,
  divideRounded,
  KnownCurrency,
  MAX_AMOUNT_MINOR,
  renderMinor,
  SignedAmountMinor
} from "../money/model.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** An invoice id. */
export const InvoiceId = Uuid.pipe(Schema.brand("InvoiceId"))
export type InvoiceId = typeof InvoiceId.Type

/**
 * Where an invoice stands as stored: `draft` (editable, not sent), `scheduled` (to be sent at `scheduledAt`), `unpaid`
 * (sent), `paid` (final), `canceled`. `overdue` is never stored: it is an unpaid invoice past its due date.
 */
export const StoredInvoiceStatus = Schema.Literals(["draft", "scheduled", "unpaid", "paid", "canceled"])
export type StoredInvoiceStatus = typeof StoredInvoiceStatus.Type

/** Where an invoice stands as clients see it: the stored status, with `overdue` computed from the due date. */
export const InvoiceStatus = Schema.Literals(["draft", "scheduled", "unpaid", "overdue", "paid", "canceled"])
export type InvoiceStatus = typeof InvoiceStatus.Type

/** A percentage rate (tax, VAT) from 0 to 100 with at most two decimals. */
export const RatePercent = Schema.Finite.annotate({
  description: "A percentage from 0 to 100 with at most 2 decimals: 20 is 20 %.",
  examples: [20]
}).check(
  Schema.isBetween({ minimum: 0, maximum: 100 }, { message: "expected a percentage from 0 to 100" }),
  Schema.makeFilter((rate: number) => (decimalOf(rate)?.scale ?? 3) <= 2, { message: "expected at most 2 decimals" })
)

/** A line item's quantity: above zero, at most 1,000,000, with at most four decimals (hours, days). */
export const Quantity = Schema.Finite.annotate({
  description: "How many units: above 0, at most 1000000, with at most 4 decimals.",
  examples: [2]
}).check(
  Schema.isGreaterThan(0, { message: "expected a quantity above 0" }),
  Schema.isLessThanOrEqualTo(1_000_000, { message: "expected a quantity of at most 1000000" }),
  Schema.makeFilter((quantity: number) => (decimalOf(quantity)?.scale ?? 5) <= 4, {
    message: "expected at most 4 decimals"
  })
)

/** A line of an invoice: what is billed, how much of it, at which unit price (minor units) and rates. */
export const InvoiceLineItem = Schema.Struct({
  name: Schema.String,
  quantity: Quantity,
  unitPriceMinor: SignedAmountMinor,
  taxRate: Schema.NullOr(RatePercent),
  vatRate: Schema.NullOr(RatePercent)
})
export type InvoiceLineItem = typeof InvoiceLineItem.Type

/**
 * An invoice of a team to one of its customers, amounts in integer minor units of its currency. The number is unique
 * per team; the token gives public access to this one invoice (its payment page and PDF).
 */
export const Invoice = Schema.Struct({
  id: InvoiceId,
  teamId: TeamId,
  invoiceNumber: Schema.String,
  status: StoredInvoiceStatus,
  customerId: Schema.NullOr(Schema.String),
  customerName: Schema.String,
  currency: KnownCurrency,
  issueDate: CalendarDate,
  dueDate: CalendarDate,
  lineItems: Schema.Array(InvoiceLineItem),
  discountMinor: SignedAmountMinor,
  note: Schema.NullOr(Schema.String),
  /** The team's own note: answered on the team's reads, never on what leaves the team (see `outgoingInvoice`). */
  internalNote: Schema.NullOr(Schema.String),
  token: Schema.String,
  scheduledAt: Schema.NullOr(Schema.String),
  sentAt: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(Schema.String),
  canceledAt: Schema.NullOr(Schema.String),
  paymentIntentId: Schema.NullOr(Schema.String),
  paidTransactionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Invoice = typeof Invoice.Type

/**
 * An invoice as it may leave the team (its PDF, the public token routes, the payments provider): without its internal
 * note.
 */
export type OutgoingInvoice = Omit<Invoice, "internalNote">

/** The invoice without what stays inside the team. */
export const outgoingInvoice = (invoice: OutgoingInvoice): OutgoingInvoice => {
  const { internalNote: _internalNote, ...outgoing } = invoice as OutgoingInvoice & { readonly internalNote?: unknown }
  return outgoing
}

/** The number given to a team's `n`-th numbered invoice: `INV-0001`, ..., `INV-10000`. */
export const invoiceNumberOf = (n: number): string => `INV-${String(n).padStart(4, "0")}`

/** A line's amount before tax: quantity times unit price, rounded half away from zero to the minor unit. */
export const lineNetMinor = (item: Pick<InvoiceLineItem, "quantity" | "unitPriceMinor">): number => {
  const quantity = decimalOf(item.quantity) ?? { digits: 0n, scale: 0 }
  return Number(divideRounded(quantity.digits * BigInt(item.unitPriceMinor), 10n ** BigInt(quantity.scale)))
}

/** A percentage of an amount, rounded half away from zero; 0 without a rate. */
const percentOf = (amountMinor: number, rate: number | null): number => {
  const decimal = rate === null ? undefined : decimalOf(rate)
  if (decimal === undefined) return 0
  return Number(divideRounded(BigInt(amountMinor) * decimal.digits, 100n * 10n ** BigInt(decimal.scale)))
}

/** An invoice's sums in minor units. */
export interface InvoiceTotals {
  readonly subtotalMinor: number
  readonly taxMinor: number
  readonly vatMinor: number
  readonly totalMinor: number
}

/**
 * The sums of an invoice: the subtotal is the lines' net amounts; tax and VAT are each line's rate of its net amount,
 * rounded per line; the total is subtotal - discount + tax + VAT (the discount does not reduce the taxed base).
 */
export const invoiceTotals = (invoice: Pick<Invoice, "lineItems" | "discountMinor">): InvoiceTotals => {
  let subtotalMinor = 0
  let taxMinor = 0
  let vatMinor = 0
  for (const item of invoice.lineItems) {
    const net = lineNetMinor(item)
    subtotalMinor += net
    taxMinor += percentOf(net, item.taxRate)
    vatMinor += percentOf(net, item.vatRate)
  }
  return { subtotalMinor, taxMinor, vatMinor, totalMinor: subtotalMinor - invoice.discountMinor + taxMinor + vatMinor }
}

/** Whether the totals fit the stored amount range (at most 15 digits in minor units). */
export const totalsInRange = (totals: InvoiceTotals): boolean =>
  Object.values(totals).every((amount) => Math.abs(amount) <= MAX_AMOUNT_MINOR)

/** The calendar day (UTC) of an ISO instant. */
export const dayOf = (iso: string): string => iso.slice(0, 10)

/**
 * The status a client sees at `nowIso`: a scheduled invoice whose time has come counts as sent (unpaid), and an unpaid
 * invoice whose due date has passed is overdue.
 */
export const effectiveStatus = (
  invoice: Pick<Invoice, "status" | "scheduledAt" | "dueDate">,
  nowIso: string
): InvoiceStatus => {
  const sent =
    invoice.status === "unpaid" ||
    (invoice.status === "scheduled" && invoice.scheduledAt !== null && invoice.scheduledAt <= nowIso)
  if (!sent) return invoice.status
  return invoice.dueDate < dayOf(nowIso) ? "overdue" : "unpaid"
}

/** The statuses a client may ask an invoice to move to with PUT. */
export const InvoiceTarget = Schema.Literals(["unpaid", "paid", "canceled"]).annotate({
  description: "The status to move the invoice to: `unpaid` sends a draft or scheduled invoice, `paid`, or `canceled`.",
  examples: ["paid"]
})
export type InvoiceTarget = typeof InvoiceTarget.Type

/**
 * Whether an invoice in (effective) status `from` may move to `to`: a draft or scheduled invoice is sent (unpaid); an
 * unpaid or overdue one is paid; anything not yet paid is canceled. Paid and canceled are final.
 */
export const canMove = (from: InvoiceStatus, to: InvoiceTarget): boolean => {
  switch (to) {
    case "unpaid":
      return from === "draft" || from === "scheduled"
    case "paid":
      return from === "unpaid" || from === "overdue"
    case "canceled":
      return from === "draft" || from === "scheduled" || from === "unpaid" || from === "overdue"
  }
}

/** The invoice paid at `paidAt` (it was sent: a scheduled one when its time came). */
export const paidAtTime = (invoice: Invoice, paidAt: string): Invoice => ({
  ...invoice,
  status: "paid",
  paidAt,
  sentAt: invoice.sentAt ?? invoice.scheduledAt
})

/** Whether the content of an invoice (customer, lines, dates, amounts) may still change. */
export const isEditable = (status: InvoiceStatus): boolean => status !== "paid" && status !== "canceled"

/** Whether an invoice may be deleted: a draft (never sent) or a canceled one. */
export const isDeletable = (status: InvoiceStatus): boolean => status === "draft" || status === "canceled"

/** Whether an invoice can be paid by its customer now (sent, not yet paid). */
export const isPayable = (status: InvoiceStatus): boolean => status === "unpaid" || status === "overdue"

/** A line item as clients see it: amounts in major units. */
export const InvoiceLineItemView = Schema.Struct({
  name: Schema.String,
  quantity: Schema.Finite,
  unitPrice: Schema.Finite,
  taxRate: Schema.NullOr(Schema.Finite),
  vatRate: Schema.NullOr(Schema.Finite),
  amount: Schema.Finite
})

/**
 * An invoice as the team sees it: amounts in major units, its status at the time of the answer, and its internal note
 * (so never a public answer).
 */
export const InvoiceView = Schema.Struct({
  object: Schema.Literal("invoice"),
  id: Schema.String,
  invoiceNumber: Schema.String,
  status: InvoiceStatus,
  customerId: Schema.NullOr(Schema.String),
  customerName: Schema.String,
  currency: Schema.String,
  issueDate: Schema.String,
  dueDate: Schema.String,
  lineItems: Schema.Array(InvoiceLineItemView),
  subtotal: Schema.Finite,
  discount: Schema.Finite,
  tax: Schema.Finite,
  vat: Schema.Finite,
  total: Schema.Finite,
  note: Schema.NullOr(Schema.String),
  internalNote: Schema.NullOr(Schema.String),
  token: Schema.String,
  scheduledAt: Schema.NullOr(Schema.String),
  sentAt: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(Schema.String),
  canceledAt: Schema.NullOr(Schema.String),
  paidTransactionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type InvoiceView = typeof InvoiceView.Type

/** The client view of an invoice at `nowIso`. */
export const invoiceView =
  (nowIso: string) =>
  (invoice: Invoice): InvoiceView => {
    const major = (minor: number) => renderMinor(minor, invoice.currency)
    const totals = invoiceTotals(invoice)
    return {
      object: "invoice",
      id: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
      status: effectiveStatus(invoice, nowIso),
      customerId: invoice.customerId,
      customerName: invoice.customerName,
      currency: invoice.currency,
      issueDate: invoice.issueDate,
      dueDate: invoice.dueDate,
      lineItems: invoice.lineItems.map((item) => ({
        name: item.name,
        quantity: item.quantity,
        unitPrice: major(item.unitPriceMinor),
        taxRate: item.taxRate,
        vatRate: item.vatRate,
        amount: major(lineNetMinor(item))
      })),
      subtotal: major(totals.subtotalMinor),
      discount: major(invoice.discountMinor),
      tax: major(totals.taxMinor),
      vat: major(totals.vatMinor),
      total: major(totals.totalMinor),
      note: invoice.note,
      internalNote: invoice.internalNote,
      token: invoice.token,
      scheduledAt: invoice.scheduledAt,
      sentAt: invoice.sentAt,
      paidAt: invoice.paidAt,
      canceledAt: invoice.canceledAt,
      paidTransactionId: invoice.paidTransactionId,
      createdAt: invoice.createdAt,
      updatedAt: invoice.updatedAt
    }
  }

/** The outbound event of an invoice paid through the payments provider. */
export const InvoiceEventType = Schema.Literal("invoice.paid")

/** What `invoice.paid` carries: the invoice, the amount paid (major units) and the transaction it was recorded as. */
export const InvoicePaymentView = Schema.Struct({
  id: Schema.String,
  invoiceNumber: Schema.String,
  customerName: Schema.String,
  amount: Schema.Finite,
  currency: Schema.String,
  paidAt: Schema.String,
  transactionId: Schema.String
})
export type InvoicePaymentView = typeof InvoicePaymentView.Type

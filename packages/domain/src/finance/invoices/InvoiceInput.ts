import { Result } from "effect"
import { isoOfMillis, millisOfIso } from "../../shared/model.ts"
import { type InvalidAmount, parseMajor, renderMinor } from "../money/model.ts"
import { type Invoice, type InvoiceLineItem, type InvoiceTarget, invoiceTotals, totalsInRange } from "./Invoice.ts"
import { InvalidInvoice } from "./InvoiceErrors.ts"

/** A line item as a client gives it: the unit price in major units of the invoice's currency. */
export interface InvoiceLineInput {
  readonly name: string
  readonly quantity: number
  readonly unitPrice: number
  readonly taxRate?: number | null | undefined
  readonly vatRate?: number | null | undefined
}

/** What a client gives to create an invoice; without `invoiceNumber` the team's next number is used. */
export interface InvoiceInput {
  readonly customerId: string
  readonly invoiceNumber?: string | undefined
  readonly currency: string
  readonly issueDate: string
  readonly dueDate: string
  readonly lineItems: ReadonlyArray<InvoiceLineInput>
  readonly discount?: number | undefined
  readonly note?: string | null | undefined
  /** The team's own note, never shown to the customer. */
  readonly internalNote?: string | null | undefined
}

/**
 * What a client gives to create a draft: only the customer is required. Without `currency` the team's base currency,
 * without `issueDate` today (UTC), without `dueDate` `DEFAULT_PAYMENT_TERMS_DAYS` after the issue date, without
 * `lineItems` none (a draft without line items cannot be sent).
 */
export type InvoiceDraftInput = Omit<InvoiceInput, "currency" | "issueDate" | "dueDate" | "lineItems"> &
  Partial<Pick<InvoiceInput, "currency" | "issueDate" | "dueDate" | "lineItems">>

/** The days from issue to due date of a draft created without a due date. */
export const DEFAULT_PAYMENT_TERMS_DAYS = 30

/** `input` with the defaults of a draft filled in from the team's base currency and today (YYYY-MM-DD). */
export const draftInputOf = (input: InvoiceDraftInput, baseCurrency: string, today: string): InvoiceInput => {
  const issueDate = input.issueDate ?? today
  const dueMillis = millisOfIso(`${issueDate}T00:00:00Z`) + DEFAULT_PAYMENT_TERMS_DAYS * 24 * 3600 * 1000
  return {
    ...input,
    currency: input.currency ?? baseCurrency,
    issueDate,
    dueDate: input.dueDate ?? isoOfMillis(dueMillis).slice(0, 10),
    lineItems: input.lineItems ?? []
  }
}

/**
 * A change to an invoice: content fields replace the stored ones (while it is not paid or canceled), `status` moves it
 * (`paidAt` only with `paid`, default now).
 */
export type InvoicePatch = Partial<InvoiceInput> & {
  readonly status?: InvoiceTarget | undefined
  readonly paidAt?: string | undefined
}

/** What an invoice bills, as its input gives it: the customer, dates, lines, discount and note. */
export type InvoiceContent = Pick<
  Invoice,
  | "customerId"
  | "customerName"
  | "currency"
  | "issueDate"
  | "dueDate"
  | "lineItems"
  | "discountMinor"
  | "note"
  | "internalNote"
>

/** The input an invoice was made from, amounts back in major units (to apply a partial change over). */
export const invoiceInputOf = (invoice: Invoice): Omit<InvoiceInput, "customerId"> => ({
  currency: invoice.currency,
  issueDate: invoice.issueDate,
  dueDate: invoice.dueDate,
  lineItems: invoice.lineItems.map((item) => ({
    ...item,
    unitPrice: renderMinor(item.unitPriceMinor, invoice.currency)
  })),
  discount: renderMinor(invoice.discountMinor, invoice.currency),
  note: invoice.note,
  internalNote: invoice.internalNote
})

/**
 * The content of an invoice from its input, for the customer given (already checked to be the team's): amounts parsed
 * in the invoice's currency, due no earlier than issued, a discount no larger than the subtotal, totals in range.
 */
export const invoiceContentOf = (
  customer: Pick<Invoice, "customerId" | "customerName">,
  input: Omit<InvoiceInput, "customerId">
): Result.Result<InvoiceContent, InvalidAmount | InvalidInvoice> =>
  Result.gen(function* () {
    const lineItems: Array<InvoiceLineItem> = []
    for (const [i, item] of input.lineItems.entries()) {
      lineItems.push({
        name: item.name,
        quantity: item.quantity,
        unitPriceMinor: yield* parseMajor(item.unitPrice, input.currency, `lineItems.${i}.unitPrice`),
        taxRate: item.taxRate ?? null,
        vatRate: item.vatRate ?? null
      })
    }
    const discountMinor = yield* parseMajor(input.discount ?? 0, input.currency, "discount")
    if (input.dueDate < input.issueDate) {
      return yield* Result.fail(new InvalidInvoice({ field: "dueDate", message: "must not be before issueDate" }))
    }
    const totals = invoiceTotals({ lineItems, discountMinor })
    if (discountMinor > totals.subtotalMinor) {
      return yield* Result.fail(new InvalidInvoice({ field: "discount", message: "must not exceed the subtotal" }))
    }
    if (!totalsInRange(totals)) {
      return yield* Result.fail(new InvalidInvoice({ field: "lineItems", message: "the total is too large" }))
    }
    return {
      customerId: customer.customerId,
      customerName: customer.customerName,
      currency: input.currency,
      issueDate: input.issueDate,
      dueDate: input.dueDate,
      lineItems,
      discountMinor,
      note: input.note ?? null,
      internalNote: input.internalNote ?? null
    }
  })

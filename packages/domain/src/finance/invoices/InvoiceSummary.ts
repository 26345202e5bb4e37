import { Schema } from "effect"
import { renderMinor } from "../money/model.ts"
import { dayOf, effectiveStatus, type Invoice, InvoiceStatus, invoiceTotals } from "./Invoice.ts"

/** The count and total (major units) of a team's invoices in one status. */
export const InvoiceStatusTotal = Schema.Struct({
  status: InvoiceStatus,
  count: Schema.Int,
  total: Schema.Finite
})

/** GET /invoices/summary: per status, the invoices in `currency` (the team's base currency unless asked). */
export const InvoiceSummary = Schema.Struct({
  currency: Schema.String,
  statuses: Schema.Array(InvoiceStatusTotal)
})
export type InvoiceSummary = typeof InvoiceSummary.Type

/** Counts and sums the invoices in `currency` per status at `nowIso`; every status appears, 0 when empty. */
export const summarizeInvoices = (
  invoices: ReadonlyArray<Invoice>,
  currency: string,
  nowIso: string
): InvoiceSummary => {
  const sums = new Map(InvoiceStatus.literals.map((status) => [status, { count: 0, totalMinor: 0 }]))
  for (const invoice of invoices) {
    if (invoice.currency !== currency) continue
    const sum = sums.get(effectiveStatus(invoice, nowIso))
    if (sum === undefined) continue
    sum.count++
    sum.totalMinor += invoiceTotals(invoice).totalMinor
  }
  return {
    currency,
    statuses: [...sums].map(([status, sum]) => ({
      status,
      count: sum.count,
      total: renderMinor(sum.totalMinor, currency)
    }))
  }
}

/** How well a team's customers pay: `none` without history, else by the share paid on time. */
export const PaymentHealth = Schema.Literals(["none", "good", "average", "bad"])

/**
 * GET /invoices/payment-status: of the invoices that were due or paid, how many were paid by their due date, paid
 * late, or are overdue now; `score` is the percentage paid on time (null without history).
 */
export const InvoicePaymentStatus = Schema.Struct({
  status: PaymentHealth,
  score: Schema.NullOr(Schema.Int),
  paidOnTime: Schema.Int,
  paidLate: Schema.Int,
  overdue: Schema.Int
})
export type InvoicePaymentStatus = typeof InvoicePaymentStatus.Type

/** The payment status of a team's invoices at `nowIso`: good from 80 % on time, average from 50 %, else bad. */
export const paymentStatusOf = (invoices: ReadonlyArray<Invoice>, nowIso: string): InvoicePaymentStatus => {
  let paidOnTime = 0
  let paidLate = 0
  let overdue = 0
  for (const invoice of invoices) {
    const status = effectiveStatus(invoice, nowIso)
    if (status === "overdue") overdue++
    if (status === "paid" && invoice.paidAt !== null) {
      if (dayOf(invoice.paidAt) <= invoice.dueDate) paidOnTime++
      else paidLate++
    }
  }
  const counted = paidOnTime + paidLate + overdue
  if (counted === 0) return { status: "none", score: null, paidOnTime, paidLate, overdue }
  const score = Math.round((paidOnTime * 100) / counted)
  return {
    status: score >= 80 ? "good" : score >= 50 ? "average" : "bad",
    score,
    paidOnTime,
    paidLate,
    overdue
  }
}

import { Effect, Option } from "effect"
import { EventOutbox } from "../../platform/index.ts"
import { newId, newIdText, nowIso, Transactor } from "../../shared/index.ts"
import { renderMinor } from "../money/model.ts"
import { providerTransaction, TransactionsRepo } from "../transactions/index.ts"
import { type Transaction, TransactionId } from "../transactions/model.ts"
import {
  dayOf,
  effectiveStatus,
  type Invoice,
  type InvoicePaymentView,
  invoiceTotals,
  isPayable,
  paidAtTime
} from "./Invoice.ts"
import { invoiceStatusConflict } from "./InvoiceChanges.ts"
import { InvoiceNotFound, InvoicePaymentMismatch } from "./InvoiceErrors.ts"
import { InvoicesRepo } from "./InvoicesRepo.ts"

/** A payment the payments provider reports for an invoice, in minor units. */
export interface ProviderPayment {
  readonly provider: string
  readonly paymentIntentId: string
  readonly invoiceId: string
  readonly amountMinor: number
  readonly currency: string
}

/** Why a payment does not settle the invoice: another currency or another amount than its total; none when it does. */
export const invoicePaymentMismatchOf = (
  invoice: Invoice,
  payment: Pick<ProviderPayment, "amountMinor" | "currency">
): Option.Option<InvoicePaymentMismatch> => {
  const { totalMinor } = invoiceTotals(invoice)
  return payment.currency === invoice.currency && payment.amountMinor === totalMinor
    ? Option.none()
    : Option.some(
        new InvoicePaymentMismatch({
          id: invoice.id,
          message: `paid ${payment.amountMinor} ${payment.currency}, due ${totalMinor} ${invoice.currency}`
        })
      )
}

/** The business-finance transaction a payment of the invoice is recorded as: income from its customer, on the day. */
export const invoicePaymentTransaction = (
  invoice: Invoice,
  payment: ProviderPayment,
  id: TransactionId,
  nowIso: string
): Transaction =>
  providerTransaction({
    id,
    teamId: invoice.teamId,
    at: nowIso,
    date: dayOf(nowIso),
    name: `Payment of invoice ${invoice.invoiceNumber}`,
    description: null,
    amountMinor: payment.amountMinor,
    currency: invoice.currency,
    status: "posted",
    bankAccountId: null,
    counterpartyName: invoice.customerName,
    provider: payment.provider,
    providerTransactionId: payment.paymentIntentId
  })

/** What `invoice.paid` says of a payment: the invoice, the amount in major units, the transaction recording it. */
export const invoicePaidView = (
  invoice: Invoice,
  payment: Pick<ProviderPayment, "amountMinor">,
  transactionId: TransactionId,
  nowIso: string
): InvoicePaymentView => ({
  id: invoice.id,
  invoiceNumber: invoice.invoiceNumber,
  customerName: invoice.customerName,
  amount: renderMinor(payment.amountMinor, invoice.currency),
  currency: invoice.currency,
  paidAt: nowIso,
  transactionId
})

/**
 * Applies a provider's payment of an invoice in one transaction, exactly once: the invoice becomes paid, the payment is
 * recorded as a business-finance transaction (linked from the invoice) and `invoice.paid` is published. A payment of an
 * invoice already paid changes nothing (`already_paid`); concurrent deliveries serialise on the invoice's row.
 */
export const invoicePaymentRecorder = Effect.gen(function* () {
  const repo = yield* InvoicesRepo
  const transactions = yield* TransactionsRepo
  const outbox = yield* EventOutbox
  const transactor = yield* Transactor

  const apply = (payment: ProviderPayment) =>
    Effect.gen(function* () {
      const now = yield* nowIso
      const invoice = yield* repo.findById(payment.invoiceId).pipe(
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new InvoiceNotFound({ id: payment.invoiceId })),
            onSome: Effect.succeed
          })
        )
      )
      if (invoice.status === "paid") return "already_paid" as const
      const status = effectiveStatus(invoice, now)
      if (!isPayable(status)) return yield* invoiceStatusConflict(invoice, now, `a ${status} invoice cannot be paid`)
      const mismatch = invoicePaymentMismatchOf(invoice, payment)
      if (Option.isSome(mismatch)) return yield* mismatch.value
      const transactionId = yield* newId(TransactionId)
      const paid: Invoice = {
        ...paidAtTime(invoice, now),
        paymentIntentId: payment.paymentIntentId,
        paidTransactionId: transactionId,
        updatedAt: now
      }
      const outcome = yield* repo.replace(paid, invoice.status)
      if (outcome !== "updated") {
        // Another delivery paid it first (it held the row until it committed): read what it left.
        const again = yield* repo.findById(invoice.id)
        if (Option.isSome(again) && again.value.status === "paid") return "already_paid" as const
        return yield* invoiceStatusConflict(invoice, now, "the invoice changed meanwhile")
      }
      const recorded = yield* transactions.insertImported(
        invoicePaymentTransaction(invoice, payment, transactionId, now)
      )
      if (recorded.outcome === "existing") {
        return yield* new InvoicePaymentMismatch({
          id: invoice.id,
          message: `payment ${payment.paymentIntentId} is already recorded for another invoice`
        })
      }
      yield* outbox.publish({
        id: yield* newIdText,
        teamId: invoice.teamId,
        mode: "live",
        type: "invoice.paid",
        data: invoicePaidView(invoice, payment, transactionId, now),
        createdAt: now
      })
      return "paid" as const
    })

  return Effect.fn("Invoices.recordPayment")((payment: ProviderPayment) => transactor.withTransaction(apply(payment)))
})

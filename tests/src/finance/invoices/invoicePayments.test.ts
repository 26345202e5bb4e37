import { assert, describe, it } from "@effect/vitest"
import {
  InvoicePaymentView,
  invoicePaidView,
  invoicePaymentMismatchOf,
  invoicePaymentTransaction,
  Transaction,
  TransactionId
} from "@svc/domain"
import { Option, Schema } from "effect"
import { anInvoice } from "./InvoiceFixtures.ts"

const NOW = "2026-06-10T23:30:00.000Z"

const invoice = anInvoice({ invoiceNumber: "INV-0042", status: "unpaid", sentAt: "2026-06-01T08:00:00.000Z" })

// 30125 net, 3013 tax, 500 discount.
const TOTAL = 32_638

const payment = {
  provider: "stripe",
  paymentIntentId: "pi_1",
  invoiceId: invoice.id,
  amountMinor: TOTAL,
  currency: "USD"
}

describe("invoice payments", () => {
  it("a payment settles the invoice only in its currency and for its whole total", () => {
    assert.isTrue(Option.isNone(invoicePaymentMismatchOf(invoice, payment)))
    const mismatch = (changes: Partial<typeof payment>) =>
      Option.map(invoicePaymentMismatchOf(invoice, { ...payment, ...changes }), (e) => e.message)
    assert.deepStrictEqual(mismatch({ amountMinor: TOTAL - 1 }), Option.some(`paid ${TOTAL - 1} USD, due ${TOTAL} USD`))
    assert.deepStrictEqual(mismatch({ amountMinor: TOTAL + 1 }), Option.some(`paid ${TOTAL + 1} USD, due ${TOTAL} USD`))
    assert.deepStrictEqual(mismatch({ currency: "EUR" }), Option.some(`paid ${TOTAL} EUR, due ${TOTAL} USD`))
  })

  it("is recorded as an imported, posted transaction from the customer on the day, keyed by the payment intent", () => {
    const id = TransactionId.make(crypto.randomUUID())
    const recorded = invoicePaymentTransaction(invoice, payment, id, NOW)
    assert.isTrue(Schema.is(Transaction)(recorded))
    assert.deepInclude(recorded, {
      id,
      teamId: invoice.teamId,
      date: "2026-06-10",
      name: "Payment of invoice INV-0042",
      amountMinor: TOTAL,
      currency: "USD",
      status: "posted",
      manual: false,
      recurring: false,
      counterpartyName: "Acme",
      provider: "stripe",
      providerTransactionId: "pi_1",
      createdAt: NOW,
      updatedAt: NOW
    })
  })

  it("invoice.paid carries the invoice, the amount in major units and the transaction", () => {
    const id = TransactionId.make(crypto.randomUUID())
    const view = invoicePaidView(invoice, payment, id, NOW)
    assert.isTrue(Schema.is(InvoicePaymentView)(view))
    assert.deepStrictEqual(view, {
      id: invoice.id,
      invoiceNumber: "INV-0042",
      customerName: "Acme",
      amount: 326.38,
      currency: "USD",
      paidAt: NOW,
      transactionId: id
    })
  })
})

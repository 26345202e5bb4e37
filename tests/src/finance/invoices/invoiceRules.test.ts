import { assert, describe, it } from "@effect/vitest"
import {
  canMove,
  effectiveStatus,
  type Invoice,
  InvoiceStatus,
  InvoiceTarget,
  invoiceNumberOf,
  invoiceTotals,
  lineNetMinor,
  minorText,
  paymentStatusOf,
  summarizeInvoices
} from "@svc/domain"

const line = (
  quantity: number,
  unitPriceMinor: number,
  taxRate: number | null = null,
  vatRate: number | null = null
) => ({
  name: "x",
  quantity,
  unitPriceMinor,
  taxRate,
  vatRate
})

const invoice = (overrides: Partial<Invoice>): Invoice =>
  ({
    status: "unpaid",
    scheduledAt: null,
    dueDate: "2026-06-30",
    paidAt: null,
    currency: "USD",
    lineItems: [line(1, 1000)],
    discountMinor: 0,
    ...overrides
  }) as Invoice

describe("invoice rules", () => {
  it("numbers are INV- and at least four digits", () => {
    assert.deepStrictEqual([1, 42, 9999, 10000].map(invoiceNumberOf), ["INV-0001", "INV-0042", "INV-9999", "INV-10000"])
  })

  it("line amounts and rates are exact and rounded half away from zero per line", () => {
    assert.strictEqual(lineNetMinor(line(2.5, 12050)), 30125)
    assert.strictEqual(lineNetMinor(line(0.333, 100)), 33)
    assert.strictEqual(lineNetMinor(line(0.335, 100)), 34)
    assert.strictEqual(lineNetMinor(line(0.1, 3)), 0)
    assert.deepStrictEqual(
      invoiceTotals({ lineItems: [line(2.5, 12050, 10), line(1, 3000, null, 20)], discountMinor: 500 }),
      { subtotalMinor: 33125, taxMinor: 3013, vatMinor: 600, totalMinor: 36238 }
    )
    assert.deepStrictEqual(invoiceTotals({ lineItems: [line(3, 5, 12.5), line(1, 5, 12.5)], discountMinor: 0 }), {
      subtotalMinor: 20,
      taxMinor: 3,
      vatMinor: 0,
      totalMinor: 23
    })
  })

  it("minor units render as exact decimal text in the currency's digits", () => {
    assert.deepStrictEqual(
      [minorText(36238, "USD"), minorText(5, "USD"), minorText(-5, "USD"), minorText(4500, "JPY"), minorText(1, "KWD")],
      ["362.38", "0.05", "-0.05", "4500", "0.001"]
    )
  })

  it("overdue and scheduled sending are read from the clock", () => {
    const now = "2026-07-01T00:00:00.000Z"
    assert.strictEqual(effectiveStatus(invoice({}), "2026-06-30T23:59:59.999Z"), "unpaid")
    assert.strictEqual(effectiveStatus(invoice({}), now), "overdue")
    assert.strictEqual(effectiveStatus(invoice({ status: "paid" }), now), "paid")
    const scheduled = invoice({ status: "scheduled", scheduledAt: "2026-06-01T09:00:00.000Z" })
    assert.strictEqual(effectiveStatus(scheduled, "2026-06-01T08:59:59.999Z"), "scheduled")
    assert.strictEqual(effectiveStatus(scheduled, "2026-06-01T09:00:00.000Z"), "unpaid")
    assert.strictEqual(effectiveStatus(scheduled, now), "overdue")
  })

  it("moves: sent from draft or scheduled, paid from unpaid or overdue, canceled until paid; paid and canceled final", () => {
    const allowed = InvoiceStatus.literals.flatMap((from) =>
      InvoiceTarget.literals.filter((to) => canMove(from, to)).map((to) => `${from}->${to}`)
    )
    assert.sameMembers(allowed, [
      "draft->unpaid",
      "draft->canceled",
      "scheduled->unpaid",
      "scheduled->canceled",
      "unpaid->paid",
      "unpaid->canceled",
      "overdue->paid",
      "overdue->canceled"
    ])
  })

  it("summary counts the currency's invoices per status now; payment status scores on-time payment", () => {
    const now = "2026-07-15T12:00:00.000Z"
    const invoices = [
      invoice({ dueDate: "2026-08-01" }),
      invoice({ dueDate: "2026-07-01" }),
      invoice({ status: "paid", paidAt: "2026-06-30T10:00:00.000Z" }),
      invoice({ status: "paid", paidAt: "2026-06-30T23:00:00.000Z", dueDate: "2026-06-30" }),
      invoice({ status: "paid", paidAt: "2026-07-02T00:00:00.000Z" }),
      invoice({ currency: "EUR", dueDate: "2026-08-01" })
    ]
    const summary = summarizeInvoices(invoices, "USD", now)
    assert.deepStrictEqual(
      summary.statuses.filter((s) => s.count > 0),
      [
        { status: "unpaid", count: 1, total: 10 },
        { status: "overdue", count: 1, total: 10 },
        { status: "paid", count: 3, total: 30 }
      ]
    )
    assert.deepStrictEqual(paymentStatusOf(invoices, now), {
      status: "average",
      score: 50,
      paidOnTime: 2,
      paidLate: 1,
      overdue: 1
    })
    assert.deepStrictEqual(paymentStatusOf([], now), {
      status: "none",
      score: null,
      paidOnTime: 0,
      paidLate: 0,
      overdue: 0
    })
  })
})

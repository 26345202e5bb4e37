import { assert, describe, it } from "@effect/vitest"
import {
  type Invoice,
  type InvoiceInput,
  invoiceContentOf,
  invoiceInputOf,
  invoicePatchRefusal,
  invoiceStatusConflict,
  movedInvoice,
  patchedStatusOf,
  sentInvoice
} from "@svc/domain"
import { Option, Result } from "effect"
import { anInvoice } from "./InvoiceFixtures.ts"

const AT = "2026-06-01T08:00:00.000Z"
const NOW = "2026-06-10T12:00:00.000Z"

const customer = { customerId: "c1", customerName: "Acme" }
const input: Omit<InvoiceInput, "customerId"> = {
  currency: "USD",
  issueDate: "2026-06-01",
  dueDate: "2026-06-30",
  lineItems: [{ name: "Design", quantity: 2.5, unitPrice: 120.5, taxRate: 10 }],
  discount: 5
}

const failure = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) return assert.fail(`expected a refusal, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("invoice content", () => {
  it("is read in minor units of the invoice's currency, with null rates and note by default", () => {
    assert.deepStrictEqual(
      invoiceContentOf(customer, input),
      Result.succeed({
        ...customer,
        currency: "USD",
        issueDate: "2026-06-01",
        dueDate: "2026-06-30",
        lineItems: [{ name: "Design", quantity: 2.5, unitPriceMinor: 12_050, taxRate: 10, vatRate: null }],
        discountMinor: 500,
        note: null,
        internalNote: null
      })
    )
  })

  it("names the field at fault: a price or discount with too many decimals, dates out of order, a discount too large", () => {
    const fault = (changes: Partial<typeof input>) => {
      const e = failure(invoiceContentOf(customer, { ...input, ...changes }))
      return `${e._tag} ${e.field}`
    }
    assert.strictEqual(
      fault({ lineItems: [input.lineItems[0]!, { name: "x", quantity: 1, unitPrice: 0.001 }] }),
      "InvalidAmount lineItems.1.unitPrice"
    )
    assert.strictEqual(fault({ discount: 0.005 }), "InvalidAmount discount")
    assert.strictEqual(fault({ dueDate: "2026-05-31" }), "InvalidInvoice dueDate")
    assert.strictEqual(fault({ discount: 301.26 }), "InvalidInvoice discount")
    assert.strictEqual(
      fault({ lineItems: [{ name: "x", quantity: 1_000_000, unitPrice: 99_999_999_999 }], discount: 0 }),
      "InvalidInvoice lineItems"
    )
  })

  it("an invoice's input, applied over, gives its content back", () => {
    const stored = anInvoice({ note: "thanks", internalNote: "chase in May" })
    const content = Result.getOrThrow(invoiceContentOf(stored, invoiceInputOf(stored)))
    assert.deepStrictEqual(content, {
      customerId: stored.customerId,
      customerName: stored.customerName,
      currency: stored.currency,
      issueDate: stored.issueDate,
      dueDate: stored.dueDate,
      lineItems: stored.lineItems,
      discountMinor: stored.discountMinor,
      note: stored.note,
      internalNote: stored.internalNote
    })
  })
})

describe("invoice status changes", () => {
  it("a conflict names the status the client sees", () => {
    const overdue = anInvoice({ status: "unpaid", dueDate: "2026-06-05" })
    assert.deepInclude(invoiceStatusConflict(overdue, NOW, "no"), { id: overdue.id, status: "overdue", message: "no" })
  })

  it("a move sends once, pays at the time given (default now) and cancels now", () => {
    const sent = movedInvoice(anInvoice({}), "unpaid", NOW, undefined)
    assert.deepInclude(sent, { status: "unpaid", sentAt: NOW })
    assert.strictEqual(movedInvoice({ ...sent, sentAt: AT }, "unpaid", NOW, undefined).sentAt, AT)
    assert.deepInclude(movedInvoice(sent, "paid", NOW, undefined), { status: "paid", paidAt: NOW })
    assert.deepInclude(movedInvoice(sent, "paid", NOW, AT), { status: "paid", paidAt: AT })
    assert.deepInclude(movedInvoice(sent, "canceled", NOW, undefined), { status: "canceled", canceledAt: NOW })
  })

  it("a patch is refused for paidAt without paid, and for new content (the number included) once final", () => {
    const draft = anInvoice({})
    const paid = anInvoice({ status: "paid", paidAt: AT })
    const refusal = (current: Invoice, patch: Parameters<typeof invoicePatchRefusal>[1]) =>
      Option.map(invoicePatchRefusal(current, patch, NOW), (e) => e._tag)
    assert.deepStrictEqual(refusal(draft, { paidAt: AT }), Option.some("InvalidInvoice"))
    assert.deepStrictEqual(refusal(draft, { status: "unpaid", paidAt: AT }), Option.some("InvalidInvoice"))
    assert.deepStrictEqual(refusal(paid, { note: "late" }), Option.some("InvoiceStatusConflict"))
    assert.deepStrictEqual(refusal(paid, { invoiceNumber: "X-1" }), Option.some("InvoiceStatusConflict"))
    assert.deepStrictEqual(
      refusal(anInvoice({ status: "canceled" }), { dueDate: "2026-07-01" }),
      Option.some("InvoiceStatusConflict")
    )
    assert.isTrue(Option.isNone(invoicePatchRefusal(paid, { status: "paid" }, NOW)))
    assert.isTrue(Option.isNone(invoicePatchRefusal(draft, { note: "x", status: "canceled" }, NOW)))
    assert.isTrue(
      Option.isNone(invoicePatchRefusal(anInvoice({ status: "unpaid" }), { status: "paid", paidAt: AT }, NOW))
    )
  })

  it("a patch's status moves the patched invoice when the current one may make the move", () => {
    const current = anInvoice({})
    const next = { ...current, note: "edited" }
    assert.deepStrictEqual(patchedStatusOf(current, next, {}, NOW), Result.succeed(next))
    assert.deepStrictEqual(
      patchedStatusOf(anInvoice({ status: "paid" }), next, { status: "paid" }, NOW),
      Result.succeed(next)
    )
    assert.deepInclude(Result.getOrThrow(patchedStatusOf(current, next, { status: "unpaid" }, NOW)), {
      status: "unpaid",
      note: "edited",
      sentAt: NOW
    })
    const refused = failure(patchedStatusOf(current, next, { status: "paid" }, NOW))
    assert.deepInclude(refused, {
      _tag: "InvoiceStatusConflict",
      status: "draft",
      message: "a draft invoice cannot become paid"
    })
    const overdue = anInvoice({ status: "unpaid", dueDate: "2026-06-05" })
    assert.deepInclude(Result.getOrThrow(patchedStatusOf(overdue, overdue, { status: "paid", paidAt: AT }, NOW)), {
      status: "paid",
      paidAt: AT
    })
  })

  it("sending sends a draft now, schedules it for a later time, and refuses once sent", () => {
    const draft = anInvoice({})
    assert.deepInclude(Result.getOrThrow(sentInvoice(draft, null, NOW)), {
      status: "unpaid",
      sentAt: NOW,
      updatedAt: NOW
    })
    assert.deepInclude(Result.getOrThrow(sentInvoice(draft, AT, NOW)), { status: "unpaid", sentAt: NOW })
    const later = "2026-06-20T09:00:00.000Z"
    const scheduled = Result.getOrThrow(sentInvoice(draft, later, NOW))
    assert.deepInclude(scheduled, { status: "scheduled", scheduledAt: later, sentAt: null, updatedAt: NOW })
    assert.deepInclude(Result.getOrThrow(sentInvoice(scheduled, null, NOW)), { status: "unpaid", sentAt: NOW })
    const refused = failure(sentInvoice(anInvoice({ status: "unpaid" }), null, NOW))
    assert.deepInclude(refused, {
      _tag: "InvoiceStatusConflict",
      status: "unpaid",
      message: "a unpaid invoice cannot be sent"
    })
  })
})

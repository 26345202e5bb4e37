import { type Invoice, InvoiceId, TeamId } from "@svc/domain"

const AT = "2026-06-01T08:00:00.000Z"

/** A USD draft of a new team, one line of 2.5 × 120.50 at 10% tax, 5.00 off (due 326.38); `overrides` set the rest. */
export const anInvoice = (overrides: Partial<Invoice> = {}): Invoice => ({
  id: InvoiceId.make(crypto.randomUUID()),
  teamId: TeamId.make(crypto.randomUUID()),
  invoiceNumber: "INV-0001",
  status: "draft",
  customerId: "c1",
  customerName: "Acme",
  currency: "USD",
  issueDate: "2026-06-01",
  dueDate: "2026-06-30",
  lineItems: [{ name: "Design", quantity: 2.5, unitPriceMinor: 12_050, taxRate: 10, vatRate: null }],
  discountMinor: 500,
  note: null,
  internalNote: null,
  token: "t",
  scheduledAt: null,
  sentAt: null,
  paidAt: null,
  canceledAt: null,
  paymentIntentId: null,
  paidTransactionId: null,
  createdAt: AT,
  updatedAt: AT,
  ...overrides
})

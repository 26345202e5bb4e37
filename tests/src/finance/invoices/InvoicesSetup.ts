import { assert } from "@effect/vitest"
import type { Client } from "../../support/HttpScenarios.ts"
import { setUpKeyedTeam } from "../../support/HttpScenarios.ts"

/** A team with an owner session and one customer, made through the API. */
export const teamWithCustomer = async (app: Client, customerName = "Globex Corporation") => {
  const team = await setUpKeyedTeam(app)
  const customer = await app.call("POST", "/customers", { token: team.owner, body: { name: customerName } })
  assert.strictEqual(customer.status, 201)
  return { teamId: team.id, token: team.owner, customerId: customer.body.id as string }
}

/**
 * An invoice request: 2.5 x 120.50 at 10 % tax (301.25 + 30.13 tax), 1 x 30.00 at 20 % VAT (30.00 + 6.00 VAT), 5.00
 * off: subtotal 331.25, total 362.38 USD.
 */
export const invoiceBody = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  customerId,
  currency: "USD",
  issueDate: "2026-01-10",
  dueDate: "2099-02-10",
  lineItems: [
    { name: "Design work", quantity: 2.5, unitPrice: 120.5, taxRate: 10 },
    { name: "Hosting", quantity: 1, unitPrice: 30, vatRate: 20 }
  ],
  discount: 5,
  note: "Thank you for your business",
  ...overrides
})

/** Creates an invoice through the API and answers its body. */
export const createInvoice = async (
  app: Client,
  token: string,
  customerId: string,
  overrides: Record<string, unknown> = {}
) => {
  const created = await app.call("POST", "/invoices", { token, body: invoiceBody(customerId, overrides) })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

/** Sends an invoice through the API and answers its body. */
export const sendInvoice = async (app: Client, token: string, id: string) => {
  const sent = await app.call("POST", `/invoices/${id}/send`, { token })
  assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
  return sent.body
}

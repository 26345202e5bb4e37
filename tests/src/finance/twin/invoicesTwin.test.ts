import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { pdfText } from "../invoices/InvoiceDownloadSuite.ts"
import { sendInvoice } from "../invoices/InvoicesSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

/** YYYY-MM-DD of today (UTC) plus `days`. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

twinSuite("invoices", (it) => {
  it.effect(
    "a draft with only a customer takes the team's currency, today and 30 days; it is sent only with lines",
    () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await financeTeam(app, "EUR")
        const customer = await app.call("POST", "/customers", { token, body: { name: "Globex" } })
        const draft = await app.call("POST", "/invoices", { token, body: { customerId: customer.body.id } })
        assert.strictEqual(draft.status, 201, JSON.stringify(draft.body))
        assert.deepInclude(draft.body, { status: "draft", currency: "EUR", customerId: customer.body.id })
        assert.include([dayFromToday(0), dayFromToday(-1)], draft.body.issueDate)
        assert.strictEqual(
          new Date(`${draft.body.dueDate}T00:00:00Z`).getTime() -
            new Date(`${draft.body.issueDate}T00:00:00Z`).getTime(),
          30 * 86_400_000
        )
        assert.deepStrictEqual(draft.body.lineItems, [])

        const sent = await app.call("POST", `/invoices/${draft.body.id}/send`, { token, body: {} })
        assert.strictEqual(sent.status, 409, JSON.stringify(sent.body))
        const unpaid = await app.call("PUT", `/invoices/${draft.body.id}`, { token, body: { status: "unpaid" } })
        assert.strictEqual(unpaid.status, 409, JSON.stringify(unpaid.body))

        const filled = await app.call("PUT", `/invoices/${draft.body.id}`, {
          token,
          body: { lineItems: [{ name: "Design", quantity: 2, unitPrice: 150 }] }
        })
        assert.strictEqual(filled.status, 200, JSON.stringify(filled.body))
        const canceledOk = await app.call("PUT", `/invoices/${draft.body.id}`, { token, body: { status: "unpaid" } })
        assert.strictEqual(canceledOk.status, 200, JSON.stringify(canceledOk.body))
        assert.strictEqual(canceledOk.body.status, "unpaid")
      })
  )

  it.effect("an empty draft may still be canceled; a due date before the defaulted issue date is refused", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const customer = await app.call("POST", "/customers", { token, body: { name: "Initech" } })
      const draft = await app.call("POST", "/invoices", { token, body: { customerId: customer.body.id } })
      assert.strictEqual(draft.body.currency, "USD")
      const canceled = await app.call("PUT", `/invoices/${draft.body.id}`, { token, body: { status: "canceled" } })
      assert.strictEqual(canceled.status, 200, JSON.stringify(canceled.body))
      assertInvalid(
        await app.call("POST", "/invoices", { token, body: { customerId: customer.body.id, dueDate: "2000-01-01" } }),
        "dueDate"
      )
    })
  )

  it.effect("the internal note is the team's: answered on its reads, never on the PDF or the public token routes", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const customer = await app.call("POST", "/customers", { token, body: { name: "Globex" } })
      const secret = "SECRET-margin-is-60-percent"
      const draft = await app.call("POST", "/invoices", {
        token,
        body: {
          customerId: customer.body.id,
          note: "Thanks for your business",
          internalNote: secret,
          lineItems: [{ name: "Design", quantity: 1, unitPrice: 100 }]
        }
      })
      assert.strictEqual(draft.status, 201, JSON.stringify(draft.body))
      assert.strictEqual(draft.body.internalNote, secret)
      const renamed = await app.call("PUT", `/invoices/${draft.body.id}`, {
        token,
        body: { internalNote: `${secret}, ask for a deposit` }
      })
      assert.strictEqual(renamed.status, 200, JSON.stringify(renamed.body))
      assert.deepInclude(renamed.body, {
        internalNote: `${secret}, ask for a deposit`,
        note: "Thanks for your business"
      })
      const listed = await app.call("GET", "/invoices", { token })
      assert.strictEqual(listed.body.data[0].internalNote, `${secret}, ask for a deposit`)
      const invoice = await sendInvoice(app, token, draft.body.id)
      assert.strictEqual(
        (await app.call("GET", `/invoices/${invoice.id}`, { token })).body.internalNote,
        renamed.body.internalNote
      )

      const fileKey = (await app.call("GET", "/users/me", { token })).body.fileKey as string
      for (const query of [`token=${invoice.token}`, `id=${invoice.id}&fk=${encodeURIComponent(fileKey)}`]) {
        const pdf = await app.rawCall(`/files/download/invoice?${query}`)
        assert.strictEqual(pdf.status, 200)
        const text = pdfText(pdf.bytes)
        assert.include(text, "Thanks for your business", text)
        assert.notInclude(text, "SECRET", text)
        assert.notInclude(text, "deposit", text)
      }
      const intent = await app.call("POST", "/invoice-payments/payment-intent", { body: { token: invoice.token } })
      assert.strictEqual(intent.status, 200, JSON.stringify(intent.body))
      assert.notInclude(JSON.stringify(intent.body), "SECRET")

      const cleared = await app.call("POST", "/invoices", {
        token,
        body: { customerId: customer.body.id, internalNote: null }
      })
      assert.strictEqual(cleared.body.internalNote, null)
      assert.strictEqual(
        (await app.call("POST", "/invoices", { token, body: { customerId: customer.body.id } })).body.internalNote,
        null
      )
      const tooLong = await app.call("POST", "/invoices", {
        token,
        body: { customerId: customer.body.id, internalNote: "x".repeat(5001) }
      })
      assert.strictEqual(tooLong.status, 400)
      assert.include(JSON.stringify(tooLong.body), "internalNote")
    })
  )
})

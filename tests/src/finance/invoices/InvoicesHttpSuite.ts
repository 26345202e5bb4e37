import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { createInvoice, invoiceBody, sendInvoice, teamWithCustomer } from "./InvoicesSetup.ts"

/** The invoice routes over HTTP on whichever ports the caller provides. */
export const invoicesHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`invoices over HTTP (${name})`, (it) => {
    it.effect("create numbers the team's invoices, computes exact totals, reads, lists, edits and deletes", () =>
      withAppOnPorts(async (app) => {
        const { token, customerId } = await teamWithCustomer(app)
        const first = await createInvoice(app, token, customerId)
        assert.deepInclude(first, {
          object: "invoice",
          invoiceNumber: "INV-0001",
          status: "draft",
          customerId,
          customerName: "Globex Corporation",
          currency: "USD",
          subtotal: 331.25,
          discount: 5,
          tax: 30.13,
          vat: 6,
          total: 362.38,
          note: "Thank you for your business",
          sentAt: null,
          paidAt: null
        })
        assert.deepStrictEqual(first.lineItems, [
          { name: "Design work", quantity: 2.5, unitPrice: 120.5, taxRate: 10, vatRate: null, amount: 301.25 },
          { name: "Hosting", quantity: 1, unitPrice: 30, taxRate: null, vatRate: 20, amount: 30 }
        ])
        assert.match(first.token, /^[A-Za-z0-9_-]{43}$/u)
        const second = await createInvoice(app, token, customerId, {
          currency: "JPY",
          lineItems: [{ name: "Tea", quantity: 3, unitPrice: 1500 }],
          discount: 0
        })
        assert.strictEqual(second.invoiceNumber, "INV-0002")
        assert.strictEqual(second.total, 4500)
        const explicit = await createInvoice(app, token, customerId, { invoiceNumber: "INV-0003" })
        assert.strictEqual(explicit.invoiceNumber, "INV-0003")
        const next = await createInvoice(app, token, customerId)
        assert.strictEqual(next.invoiceNumber, "INV-0004", "a number taken explicitly is skipped")

        assert.deepStrictEqual((await app.call("GET", `/invoices/${first.id}`, { token })).body, first)
        const page = await app.call("GET", "/invoices?limit=2", { token })
        assert.deepStrictEqual(
          page.body.data.map((i: { invoiceNumber: string }) => i.invoiceNumber),
          ["INV-0004", "INV-0003"]
        )
        const rest = await app.call("GET", `/invoices?limit=2&cursor=${page.body.meta.cursor}`, { token })
        assert.deepStrictEqual(
          rest.body.data.map((i: { invoiceNumber: string }) => i.invoiceNumber),
          ["INV-0002", "INV-0001"]
        )

        const edited = await app.call("PUT", `/invoices/${first.id}`, {
          token,
          body: { lineItems: [{ name: "Audit", quantity: 1, unitPrice: 99.99 }], discount: 0, note: null }
        })
        assert.strictEqual(edited.status, 200, JSON.stringify(edited.body))
        assert.deepInclude(edited.body, {
          subtotal: 99.99,
          tax: 0,
          vat: 0,
          total: 99.99,
          note: null,
          invoiceNumber: "INV-0001"
        })
        assert.deepStrictEqual((await app.call("GET", `/invoices/${first.id}`, { token })).body, edited.body)

        assert.strictEqual((await app.call("DELETE", `/customers/${customerId}`, { token })).status, 200)
        const orphan = (await app.call("GET", `/invoices/${first.id}`, { token })).body
        assert.deepInclude(
          orphan,
          { customerId: null, customerName: "Globex Corporation" },
          "the name stays on the invoice"
        )
        const noted = await app.call("PUT", `/invoices/${first.id}`, { token, body: { note: "kept" } })
        assert.deepInclude(noted.body, { customerId: null, customerName: "Globex Corporation", note: "kept" })
        assert.strictEqual(
          (await app.call("PUT", `/invoices/${first.id}`, { token, body: { customerId } })).status,
          404,
          "a deleted customer cannot be named again"
        )

        const deleted = await app.call("DELETE", `/invoices/${second.id}`, { token })
        assert.deepStrictEqual(deleted.body, { id: second.id, object: "invoice", deleted: true })
        assert.strictEqual((await app.call("GET", `/invoices/${second.id}`, { token })).status, 404)
        assert.strictEqual((await app.call("DELETE", `/invoices/${second.id}`, { token })).status, 404)
      })
    )

    it.effect(
      "statuses move as allowed (overdue from the due date, paid final), 409 otherwise; summary, payment status",
      () =>
        withAppOnPorts(async (app) => {
          const { token, customerId } = await teamWithCustomer(app)
          const statusOf = async (id: string) => (await app.call("GET", `/invoices/${id}`, { token })).body.status
          const put = (id: string, body: unknown) => app.call("PUT", `/invoices/${id}`, { token, body })

          const current = await createInvoice(app, token, customerId)
          const late = await createInvoice(app, token, customerId, { dueDate: "2026-01-20" })
          const scheduled = await createInvoice(app, token, customerId)
          const doomed = await createInvoice(app, token, customerId)
          const draft = await createInvoice(app, token, customerId)

          assert.strictEqual(
            (await put(current.id, { status: "paid" })).status,
            409,
            "a draft is sent before it is paid"
          )
          const sent = await sendInvoice(app, token, current.id)
          assert.strictEqual(sent.status, "unpaid")
          assert.isNotNull(sent.sentAt)
          assert.strictEqual((await app.call("POST", `/invoices/${current.id}/send`, { token })).status, 409)
          assert.strictEqual((await sendInvoice(app, token, late.id)).status, "overdue")
          assert.strictEqual(await statusOf(late.id), "overdue")

          const later = await app.call("POST", `/invoices/${scheduled.id}/send?scheduledAt=2099-01-01T09:00:00Z`, {
            token
          })
          assert.strictEqual(later.status, 200, JSON.stringify(later.body))
          assert.deepInclude(later.body, { status: "scheduled", scheduledAt: "2099-01-01T09:00:00.000Z", sentAt: null })
          assert.strictEqual(
            (await sendInvoice(app, token, scheduled.id)).status,
            "unpaid",
            "a scheduled invoice can be sent now"
          )

          const paid = await put(late.id, { status: "paid", paidAt: "2026-02-01T10:00:00Z" })
          assert.strictEqual(paid.status, 200, JSON.stringify(paid.body))
          assert.deepInclude(paid.body, { status: "paid", paidAt: "2026-02-01T10:00:00.000Z" })
          for (const body of [{ status: "canceled" }, { status: "unpaid" }, { note: "changed" }]) {
            const refused = await put(late.id, body)
            assert.strictEqual(refused.status, 409, JSON.stringify(body))
            assert.strictEqual(refused.body.error, "invalid_status_transition")
          }
          assert.strictEqual((await app.call("DELETE", `/invoices/${late.id}`, { token })).status, 409, "paid is kept")
          assert.strictEqual(
            (await put(late.id, { status: "paid" })).status,
            200,
            "asking for the status it has changes nothing"
          )

          await sendInvoice(app, token, doomed.id)
          assert.strictEqual((await put(doomed.id, { status: "canceled" })).body.status, "canceled")
          assert.strictEqual((await put(doomed.id, { status: "paid" })).status, 409, "canceled is final")
          assertInvalid(await put(current.id, { paidAt: "2026-02-01T10:00:00Z" }), "paidAt")
          assert.strictEqual((await app.call("DELETE", `/invoices/${doomed.id}`, { token })).status, 200)

          const statuses = (await app.call("GET", "/invoices?status=unpaid", { token })).body.data.map(
            (i: { id: string }) => i.id
          )
          assert.sameMembers(statuses, [current.id, scheduled.id])
          assert.deepStrictEqual(
            (await app.call("GET", "/invoices?status=draft", { token })).body.data.map((i: { id: string }) => i.id),
            [draft.id]
          )
          await createInvoice(app, token, customerId, { currency: "EUR" })

          const summary = await app.call("GET", "/invoices/summary", { token })
          assert.strictEqual(summary.status, 200, JSON.stringify(summary.body))
          assert.deepStrictEqual(summary.body, {
            currency: "USD",
            statuses: [
              { status: "draft", count: 1, total: 362.38 },
              { status: "scheduled", count: 0, total: 0 },
              { status: "unpaid", count: 2, total: 724.76 },
              { status: "overdue", count: 0, total: 0 },
              { status: "paid", count: 1, total: 362.38 },
              { status: "canceled", count: 0, total: 0 }
            ]
          })
          assert.strictEqual(
            (await app.call("GET", "/invoices/summary?currency=EUR", { token })).body.statuses[0].count,
            1
          )
          assert.deepStrictEqual((await app.call("GET", "/invoices/payment-status", { token })).body, {
            status: "bad",
            score: 0,
            paidOnTime: 0,
            paidLate: 1,
            overdue: 0
          })
        })
    )

    it.effect("bad input names the field and stores nothing; a taken number is 409; other teams and scopes hold", () =>
      withAppOnPorts(async (app) => {
        const { token, customerId } = await teamWithCustomer(app)
        const other = await teamWithCustomer(app)
        const line = { name: "Work", quantity: 1, unitPrice: 10 }
        const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
          [{ lineItems: [{ ...line, quantity: -1 }] }, "lineItems.0.quantity"],
          [{ lineItems: [{ ...line, quantity: 0 }] }, "lineItems.0.quantity"],
          [{ lineItems: [line, { ...line, unitPrice: 10.005 }] }, "lineItems.1.unitPrice"],
          [{ currency: "JPY", lineItems: [{ ...line, unitPrice: 10.5 }], discount: 0 }, "lineItems.0.unitPrice"],
          [{ lineItems: [{ ...line, unitPrice: -10 }] }, "lineItems.0.unitPrice"],
          [{ lineItems: [{ ...line, taxRate: 101 }] }, "lineItems.0.taxRate"],
          [{ lineItems: Array.from({ length: 101 }, () => line) }, "lineItems"],
          [{ discount: 0.001 }, "discount"],
          [{ discount: 1000 }, "discount"],
          [{ currency: "XYZ" }, "currency"],
          [{ dueDate: "2026-01-01" }, "dueDate"],
          [{ issueDate: "2026-02-30" }, "issueDate"],
          [{ invoiceNumber: "no spaces" }, "invoiceNumber"],
          [{ customerId: "42" }, "customerId"],
          [{ color: "red" }, "color"]
        ]
        for (const [overrides, field] of cases) {
          assertInvalid(await app.call("POST", "/invoices", { token, body: invoiceBody(customerId, overrides) }), field)
        }
        const foreignCustomer = await app.call("POST", "/invoices", { token, body: invoiceBody(other.customerId) })
        assert.strictEqual(foreignCustomer.status, 404)
        assert.match(foreignCustomer.body.message, /customerId/u)
        assert.deepStrictEqual((await app.call("GET", "/invoices", { token })).body.data, [])

        const mine = await createInvoice(app, token, customerId, { invoiceNumber: "2026-001" })
        const taken = await app.call("POST", "/invoices", {
          token,
          body: invoiceBody(customerId, { invoiceNumber: "2026-001" })
        })
        assert.strictEqual(taken.status, 409)
        assert.strictEqual(taken.body.error, "invoice_number_taken")
        const renamed = await createInvoice(app, token, customerId)
        assert.strictEqual(
          (await app.call("PUT", `/invoices/${renamed.id}`, { token, body: { invoiceNumber: "2026-001" } })).status,
          409
        )
        assert.strictEqual(
          (await createInvoice(app, other.token, other.customerId, { invoiceNumber: "2026-001" })).invoiceNumber,
          "2026-001",
          "numbers are per team"
        )

        for (const [method, path, body] of [
          ["GET", `/invoices/${mine.id}`, undefined],
          ["PUT", `/invoices/${mine.id}`, { note: "mine now" }],
          ["DELETE", `/invoices/${mine.id}`, undefined],
          ["POST", `/invoices/${mine.id}/send`, undefined]
        ] as const) {
          const answer = await app.call(method, path, { token: other.token, ...(body ? { body } : {}) })
          assert.strictEqual(answer.status, 404, `${method} ${path} ${JSON.stringify(answer.body)}`)
        }
        assertInvalid(await app.call("GET", "/invoices/42", { token }), "params.id")
        assertInvalid(await app.call("PUT", `/invoices/${mine.id}`, { token, body: { status: "overdue" } }), "status")

        const reader = await app.call("POST", "/api-keys", {
          token,
          body: { name: "reader", scopes: ["invoices.read"] }
        })
        assert.strictEqual((await app.call("GET", "/invoices", { token: reader.body.secret })).status, 200)
        const refused = await app.call("POST", "/invoices", {
          token: reader.body.secret,
          body: invoiceBody(customerId)
        })
        assert.strictEqual(refused.status, 403)
        assert.strictEqual(refused.body.error, "insufficient_scope")
        assert.strictEqual((await app.call("GET", "/invoices")).status, 401)
      })
    )

    it.effect("50 concurrent invoice creations in one team get 50 distinct consecutive numbers", () =>
      withAppOnPorts(async (app) => {
        const { token, customerId } = await teamWithCustomer(app)
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => app.call("POST", "/invoices", { token, body: invoiceBody(customerId) }))
        )
        assert.deepStrictEqual(
          answers.map((a) => a.status),
          Array(50).fill(201)
        )
        assert.deepStrictEqual(
          answers.map((a) => a.body.invoiceNumber as string).toSorted(),
          Array.from({ length: 50 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`)
        )
        assert.strictEqual((await createInvoice(app, token, customerId)).invoiceNumber, "INV-0051")
      })
    )

    it.effect("a customer opens a payment intent by the invoice's token, once it is sent and until it is paid", () =>
      withAppOnPorts(async (app) => {
        const { token, customerId } = await teamWithCustomer(app)
        const invoice = await createInvoice(app, token, customerId)
        const intent = (body: unknown) => app.call("POST", "/invoice-payments/payment-intent", { body })
        assert.strictEqual((await intent({ token: "not-a-token" })).status, 404)
        const early = await intent({ token: invoice.token })
        assert.strictEqual(early.status, 409)
        assert.strictEqual(early.body.error, "invoice_not_payable")
        await sendInvoice(app, token, invoice.id)
        const opened = await intent({ token: invoice.token })
        assert.strictEqual(opened.status, 200, JSON.stringify(opened.body))
        assert.deepInclude(opened.body, {
          invoiceId: invoice.id,
          invoiceNumber: "INV-0001",
          amount: 362.38,
          currency: "USD"
        })
        assert.match(opened.body.paymentIntentId, /^pi_sim_[0-9a-f]{32}$/u)
        assert.isTrue(opened.body.clientSecret.startsWith(`${opened.body.paymentIntentId}_secret_`))
        assertInvalid(await intent({}), "token")
        await app.call("PUT", `/invoices/${invoice.id}`, { token, body: { status: "paid" } })
        assert.strictEqual((await intent({ token: invoice.token })).status, 409)
      })
    )
  })

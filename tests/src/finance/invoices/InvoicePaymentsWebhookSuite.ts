import { assert } from "@effect/vitest"
import { Notifications } from "@svc/domain"
import { Effect, type Layer } from "effect"
import { appEnv, inboundOver, newTeam, settle } from "../../inbound/InboundSetup.ts"
import { call, post, type RunningApp, sign, type WebhookPorts, withApp } from "../../support/WebhooksHarness.ts"
import { invoiceBody } from "./InvoicesSetup.ts"

/** A sent invoice (total 362.38 USD) of a new team, made over HTTP. */
const sentInvoice = (app: RunningApp) =>
  Effect.gen(function* () {
    const { teamId, token } = yield* newTeam(app)
    const customer = yield* call(app, "POST", "/customers", token, { name: "Globex Corporation" })
    const invoice = yield* call(app, "POST", "/invoices", token, invoiceBody(customer.body.id))
    assert.strictEqual(invoice.status, 201, JSON.stringify(invoice.body))
    assert.strictEqual((yield* call(app, "POST", `/invoices/${invoice.body.id}/send`, token)).status, 200)
    return { teamId, token, invoice: invoice.body }
  })

/** Posts a signed `payment_intent.succeeded` event for the invoice to /webhook/payments. */
const paymentSucceeded = (
  app: RunningApp,
  eventId: string,
  invoiceId: string,
  data: { readonly amount?: number; readonly currency?: string; readonly intent?: string } = {}
) =>
  Effect.gen(function* () {
    const body = JSON.stringify({
      id: eventId,
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: data.intent ?? "pi_test_1",
          object: "payment_intent",
          amount: data.amount ?? 36238,
          currency: data.currency ?? "usd",
          metadata: { invoice_id: invoiceId }
        }
      }
    })
    return yield* post(app, "/webhook/payments", body, yield* Effect.promise(() => sign("payments", body)))
  })

/** The payments webhook marking invoices paid, over whichever ports the caller provides. */
export const invoicePaymentsWebhookSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  inboundOver(ports)(`invoice payments webhook (${name})`, (it) => {
    it.effect(
      "a payment delivered three times, then reported as three new events worked at once, pays the invoice once",
      () =>
        withApp(appEnv(), (app) =>
          Effect.gen(function* () {
            const { token, invoice } = yield* sentInvoice(app)
            const answers = yield* Effect.forEach(
              ["evt_1", "evt_1", "evt_1"],
              (id) => paymentSucceeded(app, id, invoice.id),
              { concurrency: "unbounded" }
            )
            assert.deepStrictEqual(
              answers.map((a) => a.status),
              [200, 200, 200]
            )
            yield* settle()
            const again = yield* Effect.forEach(
              ["evt_2", "evt_3", "evt_4"],
              (id) => paymentSucceeded(app, id, invoice.id),
              { concurrency: "unbounded" }
            )
            assert.deepStrictEqual(
              again.map((a) => a.status),
              [200, 200, 200]
            )
            yield* settle(3)

            const paid = yield* call(app, "GET", `/invoices/${invoice.id}`, token)
            assert.strictEqual(paid.body.status, "paid")
            assert.isNotNull(paid.body.paidAt)
            const transactions = (yield* call(app, "GET", "/transactions", token)).body.data
            assert.strictEqual(transactions.length, 1, JSON.stringify(transactions))
            assert.deepInclude(transactions[0], {
              name: "Payment of invoice INV-0001",
              amount: 362.38,
              currency: "USD",
              counterpartyName: "Globex Corporation"
            })

            yield* Effect.flatMap(Notifications, (n) => n.fromEvents).pipe(Effect.provide(Notifications.layer))
            const notifications = (yield* call(app, "GET", "/notifications", token)).body.data
            assert.deepStrictEqual(
              notifications.map((n: { type: string }) => n.type),
              ["invoice_paid"]
            )
            assert.deepInclude(notifications[0].metadata.resource, {
              id: invoice.id,
              invoiceNumber: "INV-0001",
              amount: 362.38,
              currency: "USD"
            })
          })
        )
    )

    it.effect("a payment of another amount, of a draft or of an unknown invoice pays nothing", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { token, invoice } = yield* sentInvoice(app)
          const draft = yield* call(app, "POST", "/invoices", token, invoiceBody(invoice.customerId))
          for (const [eventId, invoiceId, data] of [
            ["evt_short", invoice.id, { amount: 100 }],
            ["evt_eur", invoice.id, { currency: "eur" }],
            ["evt_draft", draft.body.id, {}],
            ["evt_unknown", crypto.randomUUID(), {}]
          ] as const) {
            assert.strictEqual((yield* paymentSucceeded(app, eventId, invoiceId, data)).status, 200)
          }
          yield* settle()
          assert.strictEqual((yield* call(app, "GET", `/invoices/${invoice.id}`, token)).body.status, "unpaid")
          assert.strictEqual((yield* call(app, "GET", `/invoices/${draft.body.id}`, token)).body.status, "draft")
          assert.deepStrictEqual((yield* call(app, "GET", "/transactions", token)).body.data, [])
        })
      )
    )
  })

import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import type { Client } from "../../support/HttpScenarios.ts"
import { withAppOnPorts } from "../../support/HttpScenarios.ts"
import { createInvoice, sendInvoice, teamWithCustomer } from "./InvoicesSetup.ts"

/** The text of a PDF, as poppler's `pdftotext` extracts it (layout kept, so a table row stays on one line). */
export const pdfText = (pdf: Uint8Array): string => {
  const dir = mkdtempSync(join(tmpdir(), "invoice-pdf-"))
  try {
    const file = join(dir, "document.pdf")
    writeFileSync(file, pdf)
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** GETs a download with a JSON answer expected (a refusal). */
const download = (app: Client, query: string) => app.call("GET", `/files/download/invoice?${query}`)

/** The invoice PDF route over HTTP on whichever ports the caller provides. */
export const invoiceDownloadSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`invoice download (${name})`, (it) => {
    it.effect(
      "the internal note is the team's: answered on its routes, never on the PDF, the receipt or the payment page",
      () =>
        withAppOnPorts(async (app) => {
          const secret = "disputes the hosting line; chase in May"
          const { token, customerId } = await teamWithCustomer(app)
          const created = await createInvoice(app, token, customerId, { internalNote: secret })
          assert.strictEqual(created.internalNote, secret)
          assert.strictEqual(created.note, "Thank you for your business")
          const invoice = await sendInvoice(app, token, created.id)
          assert.strictEqual((await app.call("GET", `/invoices/${invoice.id}`, { token })).body.internalNote, secret)
          const listed = await app.call("GET", "/invoices", { token })
          assert.strictEqual(listed.body.data[0].internalNote, secret)

          const publicPdf = pdfText((await app.rawCall(`/files/download/invoice?token=${invoice.token}`)).bytes)
          assert.include(publicPdf, "Thank you for your business")
          assert.notInclude(publicPdf, "chase in May")
          const fileKey = (await app.call("GET", "/users/me", { token })).body.fileKey as string
          const teamPdf = await app.rawCall(
            `/files/download/invoice?id=${invoice.id}&fk=${encodeURIComponent(fileKey)}`
          )
          assert.notInclude(pdfText(teamPdf.bytes), "chase in May")
          const intent = await app.call("POST", "/invoice-payments/payment-intent", { body: { token: invoice.token } })
          assert.notInclude(JSON.stringify(intent.body), "chase in May")

          // A paid invoice's content is final, but the team may still keep notes on it.
          await app.call("PUT", `/invoices/${invoice.id}`, { token, body: { status: "paid" } })
          const noted = await app.call("PUT", `/invoices/${invoice.id}`, {
            token,
            body: { internalNote: "settled by wire" }
          })
          assert.strictEqual(noted.status, 200, JSON.stringify(noted.body))
          assert.strictEqual(noted.body.internalNote, "settled by wire")
          const refused = await app.call("PUT", `/invoices/${invoice.id}`, { token, body: { note: "new terms" } })
          assert.strictEqual(refused.status, 409)
          const receipt = pdfText(
            (await app.rawCall(`/files/download/invoice?token=${invoice.token}&type=receipt`)).bytes
          )
          assert.include(receipt, "Receipt for invoice")
          assert.notInclude(receipt, "settled by wire")
          const tooLong = await app.call("PUT", `/invoices/${invoice.id}`, {
            token,
            body: { internalNote: "x".repeat(5001) }
          })
          assert.strictEqual(tooLong.status, 400)
          assert.strictEqual(tooLong.body.details[0].path, "internalNote")
        })
    )

    it.effect("the PDF holds the invoice as text; access by id with the team's file key or by public token", () =>
      withAppOnPorts(async (app) => {
        const { token, customerId } = await teamWithCustomer(app, "Globex Corporation")
        const other = await teamWithCustomer(app)
        const invoice = await sendInvoice(app, token, (await createInvoice(app, token, customerId)).id)
        const fileKey = (await app.call("GET", "/users/me", { token })).body.fileKey as string
        const otherKey = (await app.call("GET", "/users/me", { token: other.token })).body.fileKey as string
        assert.notStrictEqual(fileKey, otherKey)

        const raw = await app.rawCall(`/files/download/invoice?id=${invoice.id}&fk=${encodeURIComponent(fileKey)}`)
        assert.strictEqual(raw.status, 200)
        assert.strictEqual(raw.headers.get("content-type"), "application/pdf")
        assert.strictEqual(raw.headers.get("content-disposition"), 'attachment; filename="INV-0001.pdf"')
        const text = pdfText(raw.bytes)
        for (const expected of [
          "Team",
          "Invoice INV-0001",
          "Globex Corporation",
          "Design work (tax 10%)",
          "Hosting (VAT 20%)",
          "301.25 USD",
          "30.00 USD",
          "Tax: 30.13 USD",
          "VAT: 6.00 USD",
          "Total: 362.38 USD",
          "Due date: 2099-02-10"
        ]) {
          assert.include(text, expected, text)
        }

        const preview = await app.rawCall(`/files/download/invoice?token=${invoice.token}&preview=true`)
        assert.strictEqual(preview.status, 200)
        assert.strictEqual(preview.headers.get("content-disposition"), 'inline; filename="INV-0001.pdf"')
        assert.include(pdfText(preview.bytes), "Invoice INV-0001")

        const receipt = await download(app, `token=${invoice.token}&type=receipt`)
        assert.strictEqual(receipt.status, 400)
        assert.strictEqual(receipt.body.error, "receipt_unavailable")
        assert.strictEqual((await download(app, `id=${invoice.id}`)).status, 401, "fk is required with id")
        assert.strictEqual(
          (await download(app, `id=${invoice.id}&fk=${encodeURIComponent(otherKey)}`)).status,
          401,
          "another team's key"
        )
        assert.strictEqual((await download(app, `id=${crypto.randomUUID()}&fk=${fileKey}`)).status, 404)
        const unknown = await download(app, "token=not-a-token")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body.error, "not_found")
        assert.strictEqual(
          (await download(app, `token=${other.customerId}`)).status,
          404,
          "a foreign value is no token"
        )
        assert.strictEqual((await download(app, "")).status, 400)
        assert.strictEqual((await download(app, "type=statement&token=x")).status, 400)

        const unicode = await createInvoice(app, token, customerId, {
          lineItems: [{ name: "Übersetzung – Перевод – Μετάφραση", quantity: 1, unitPrice: 10 }],
          discount: 0
        })
        const unicodePdf = await app.rawCall(`/files/download/invoice?token=${unicode.token}`)
        assert.include(
          pdfText(unicodePdf.bytes),
          "Übersetzung – Перевод – Μετάφραση",
          "the embedded font covers more than Latin"
        )

        const paid = await app.call("PUT", `/invoices/${invoice.id}`, {
          token,
          body: { status: "paid", paidAt: "2026-03-04T12:00:00Z" }
        })
        assert.strictEqual(paid.status, 200)
        const receiptPdf = await app.rawCall(`/files/download/invoice?token=${invoice.token}&type=receipt`)
        assert.strictEqual(receiptPdf.status, 200)
        assert.strictEqual(receiptPdf.headers.get("content-disposition"), 'attachment; filename="INV-0001-receipt.pdf"')
        const receiptText = pdfText(receiptPdf.bytes)
        assert.include(receiptText, "Receipt for invoice INV-0001")
        assert.include(receiptText, "PAID on 2026-03-04")
        assert.include(receiptText, "Total paid: 362.38 USD")
      })
    )
  })

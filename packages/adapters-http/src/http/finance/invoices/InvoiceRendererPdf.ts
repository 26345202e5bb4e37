import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dayOf, type InvoiceDocument, InvoiceRenderer, invoiceTotals, lineNetMinor, minorText } from "@svc/domain"
import { Effect, Layer } from "effect"

const require = createRequire(import.meta.url)

/** The lines of text a document shows, top to bottom, with the column layout of the line items. */
const layout = (pdf: PDFKit.PDFDocument, { invoice, teamName, kind }: InvoiceDocument) => {
  const money = (minor: number) => `${minorText(minor, invoice.currency)} ${invoice.currency}`
  const totals = invoiceTotals(invoice)
  const left = pdf.page.margins.left
  const width = pdf.page.width - left - pdf.page.margins.right

  pdf.font("bold").fontSize(20).text(teamName)
  pdf.moveDown(0.5)
  pdf
    .fontSize(14)
    .text(kind === "receipt" ? `Receipt for invoice ${invoice.invoiceNumber}` : `Invoice ${invoice.invoiceNumber}`)
  pdf.font("regular").fontSize(10).moveDown(0.5)
  pdf.text(`Bill to: ${invoice.customerName}`)
  pdf.text(`Issue date: ${invoice.issueDate}`)
  pdf.text(`Due date: ${invoice.dueDate}`)
  if (kind === "receipt" && invoice.paidAt !== null) pdf.text(`PAID on ${dayOf(invoice.paidAt)}`)
  pdf.moveDown()

  const columns = [
    { title: "Item", x: left, width: width * 0.4, align: "left" },
    { title: "Quantity", x: left + width * 0.4, width: width * 0.15, align: "right" },
    { title: "Unit price", x: left + width * 0.55, width: width * 0.2, align: "right" },
    { title: "Amount", x: left + width * 0.75, width: width * 0.25, align: "right" }
  ] as const
  const row = (cells: ReadonlyArray<string>) => {
    const y = pdf.y
    let bottom = y
    columns.forEach((column, i) => {
      pdf.text(cells[i] ?? "", column.x, y, { width: column.width, align: column.align })
      bottom = Math.max(bottom, pdf.y)
    })
    pdf.x = left
    pdf.y = bottom + 4
  }
  pdf.font("bold")
  row(columns.map((c) => c.title))
  pdf.font("regular")
  for (const item of invoice.lineItems) {
    const rates = [
      item.taxRate === null ? null : `tax ${item.taxRate}%`,
      item.vatRate === null ? null : `VAT ${item.vatRate}%`
    ].filter((r) => r !== null)
    row([
      rates.length === 0 ? item.name : `${item.name} (${rates.join(", ")})`,
      String(item.quantity),
      money(item.unitPriceMinor),
      money(lineNetMinor(item))
    ])
  }
  pdf.moveDown()
  const sum = (label: string, minor: number) =>
    pdf.text(`${label}: ${money(minor)}`, left, pdf.y, { width, align: "right" })
  sum("Subtotal", totals.subtotalMinor)
  if (invoice.discountMinor !== 0) sum("Discount", -invoice.discountMinor)
  sum("Tax", totals.taxMinor)
  sum("VAT", totals.vatMinor)
  pdf.font("bold")
  sum(kind === "receipt" ? "Total paid" : "Total", totals.totalMinor)
  pdf.font("regular")
  if (invoice.note !== null) {
    pdf.moveDown()
    pdf.text(invoice.note, left, pdf.y, { width })
  }
}

/**
 * pdfkit and the two fonts, loaded at the first render: a process that never renders an invoice does not hold them
 * (about 30 MB resident with pdfkit's font and compression modules).
 */
const loadToolkit = Effect.promise(async () => {
  const { default: PDFDocument } = await import("pdfkit")
  return {
    PDFDocument,
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"))
  }
})

/**
 * InvoiceRenderer with pdfkit: A4 PDFs whose text (team, number, customer, lines, tax, totals, dates) is real text in
 * an embedded DejaVu Sans, so any script renders and a text extractor reads it back.
 */
export const InvoiceRendererPdf = Layer.effect(
  InvoiceRenderer,
  Effect.gen(function* () {
    const toolkit = yield* Effect.cached(loadToolkit)
    return InvoiceRenderer.of({
      render: (document) =>
        Effect.flatMap(toolkit, ({ PDFDocument, regular, bold }) =>
          Effect.callback<Uint8Array>((resume) => {
            const title = `${document.kind === "receipt" ? "Receipt" : "Invoice"} ${document.invoice.invoiceNumber}`
            const pdf = new PDFDocument({ size: "A4", margin: 50, info: { Title: title, Author: document.teamName } })
            const chunks: Array<Uint8Array> = []
            pdf.on("data", (chunk: Uint8Array) => chunks.push(chunk))
            pdf.on("end", () => resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
            pdf.registerFont("regular", regular)
            pdf.registerFont("bold", bold)
            layout(pdf, document)
            pdf.end()
          })
        ).pipe(Effect.withSpan("InvoiceRenderer.render"))
    })
  })
)

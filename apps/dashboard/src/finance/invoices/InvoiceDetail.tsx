import { useState } from "preact/hooks"
import { formatMajorMoney } from "../../format/money.ts"
import { formatDate, formatDateTime } from "../../format/time.ts"
import { useWorkspace } from "../../session/context.ts"
import { ActionButton, StatusBadge } from "../../ui/components.tsx"
import type { InvoiceItem } from "./InvoiceEditor.tsx"
import { publicPdfUrl, teamPdfUrl } from "./links.ts"

/** The public link, read-only, with a button that copies it. */
const ShareLink = ({ invoice }: { readonly invoice: InvoiceItem }) => {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no")
  const url = publicPdfUrl(invoice.token)
  return (
    <div class="field share">
      <label for={`share-${invoice.id}`}>Public link</label>
      <div class="row">
        <input id={`share-${invoice.id}`} type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(url).then(
              () => setCopied("yes"),
              () => setCopied("failed")
            )
          }
        >
          Copy link
        </button>
      </div>
      <small class="muted" role="status">
        {copied === "yes"
          ? "Copied."
          : copied === "failed"
            ? "Could not copy: select the link and copy it."
            : "Anyone with the link can open the invoice's PDF and pay it."}
      </small>
    </div>
  )
}

/**
 * One invoice: its facts and lines, its PDF inline, its public link, and (owners and admins) sending, marking paid and
 * editing a draft; a paid invoice's receipt.
 */
export const InvoiceDetail = ({
  invoice,
  fileKey,
  onChanged,
  onEdit
}: {
  readonly invoice: InvoiceItem
  readonly fileKey: string
  readonly onChanged: (invoice: InvoiceItem) => void
  readonly onEdit: () => void
}) => {
  const { client, canManage } = useWorkspace()
  const money = (amount: number) => formatMajorMoney(amount, invoice.currency)
  const payable = invoice.status === "unpaid" || invoice.status === "overdue"
  return (
    <section class="card invoice" aria-labelledby={`invoice-${invoice.id}`}>
      <h2 id={`invoice-${invoice.id}`}>
        Invoice {invoice.invoiceNumber} <StatusBadge status={invoice.status} />
      </h2>
      <dl class="facts">
        <dt>Customer</dt>
        <dd>{invoice.customerName}</dd>
        <dt>Issued</dt>
        <dd>{formatDate(invoice.issueDate)}</dd>
        <dt>Due</dt>
        <dd>{formatDate(invoice.dueDate)}</dd>
        <dt>Total</dt>
        <dd class="amount">{money(invoice.total)}</dd>
        {invoice.paidAt === null ? null : (
          <>
            <dt>Paid</dt>
            <dd>{formatDateTime(invoice.paidAt)}</dd>
          </>
        )}
      </dl>
      <div class="table-wrap">
        <table class="stack">
          <caption class="visually-hidden">Lines of {invoice.invoiceNumber}</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" class="num">
                Quantity
              </th>
              <th scope="col" class="num">
                Unit price
              </th>
              <th scope="col" class="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lineItems.map((line, index) => (
              <tr key={index}>
                <td data-label="Description">{line.name}</td>
                <td class="num" data-label="Quantity">
                  {line.quantity}
                </td>
                <td class="num" data-label="Unit price">
                  {money(line.unitPrice)}
                </td>
                <td class="num" data-label="Amount">
                  {money(line.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canManage ? (
        <div class="row">
          {invoice.status === "draft" ? (
            <>
              <button type="button" onClick={onEdit}>
                Edit draft
              </button>
              <ActionButton
                kind="primary"
                action={() => client.invoices.send({ params: { id: invoice.id }, query: {} }).then(onChanged)}
              >
                Send
              </ActionButton>
            </>
          ) : null}
          {payable ? (
            <ActionButton
              kind="primary"
              action={() =>
                client.invoices.update({ params: { id: invoice.id }, payload: { status: "paid" } }).then(onChanged)
              }
            >
              Mark as paid
            </ActionButton>
          ) : null}
        </div>
      ) : null}
      <ShareLink invoice={invoice} />
      {invoice.status === "paid" ? (
        <p>
          <a href={teamPdfUrl(invoice.id, fileKey, "receipt")} target="_blank" rel="noopener">
            Receipt of {invoice.invoiceNumber} (PDF)
          </a>
        </p>
      ) : null}
      <iframe
        key={invoice.updatedAt}
        class="pdf"
        title={`PDF of ${invoice.invoiceNumber}`}
        src={teamPdfUrl(invoice.id, fileKey)}
      />
      <p>
        <a href={teamPdfUrl(invoice.id, fileKey)} target="_blank" rel="noopener">
          Open the PDF of {invoice.invoiceNumber}
        </a>
      </p>
    </section>
  )
}

import { paginate } from "@svc/sdk"
import { useState } from "preact/hooks"
import { formatMajorMoney } from "../../format/money.ts"
import { formatDate } from "../../format/time.ts"
import { useWorkspace } from "../../session/context.ts"
import { Loading, PageHeader, Pager, StatusBadge } from "../../ui/components.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { collect } from "../transactions/reference.ts"
import { InvoiceDetail } from "./InvoiceDetail.tsx"
import { type CustomerItem, InvoiceEditor, type InvoiceItem } from "./InvoiceEditor.tsx"

const STATUS_WORDS = {
  draft: "Draft",
  scheduled: "Scheduled",
  unpaid: "Unpaid",
  overdue: "Overdue",
  paid: "Paid",
  canceled: "Canceled"
} as const
type Status = keyof typeof STATUS_WORDS

/** What the page shows beside the list: nothing, an invoice, or the editor of a new or existing draft. */
type Open = { readonly kind: "none" } | { readonly kind: "invoice"; readonly id: string } | { readonly kind: "new" }

/** The team's invoices by status with each status's total, one invoice with its PDF, and the draft editor. */
export const Invoices = () => {
  const { client } = useWorkspace()
  const setup = useLoad(async () => {
    const [me, customers] = await Promise.all([
      client.me.me(),
      collect(paginate(client.customers.list, { query: { limit: 100 } }))
    ])
    // The file key opens the team's PDFs; a person has one as soon as they have a team, as the shell ensures.
    if (me.fileKey === null) throw new Error("Invoices belong to a team: create or join one first.")
    return { fileKey: me.fileKey, customers }
  }, [client])
  return (
    <>
      <PageHeader title="Invoices">
        What the team billed its customers: drafts, sent and paid invoices, each with its PDF and a public link to
        share.
      </PageHeader>
      <Loading loaded={setup.loaded} label="invoices">
        {(loaded) => <InvoiceList fileKey={loaded.fileKey} customers={loaded.customers} />}
      </Loading>
    </>
  )
}

const InvoiceList = ({
  fileKey,
  customers
}: {
  readonly fileKey: string
  readonly customers: ReadonlyArray<CustomerItem>
}) => {
  const { client, canManage } = useWorkspace()
  const [status, setStatus] = useState<Status | "">("")
  const [cursors, setCursors] = useState<ReadonlyArray<string | null>>([null])
  const [open, setOpen] = useState<Open>({ kind: "none" })
  const [editing, setEditing] = useState(false)
  const cursor = cursors[cursors.length - 1] ?? null
  const summary = useLoad(() => client.invoices.summary({ query: {} }), [client])
  const list = useLoad(
    () =>
      client.invoices.list({
        query: { limit: 25, ...(status === "" ? {} : { status }), ...(cursor === null ? {} : { cursor }) }
      }),
    [client, status, cursor]
  )
  const opened = useLoad(
    () =>
      open.kind === "invoice"
        ? client.invoices.get({ params: { id: open.id } })
        : Promise.resolve<InvoiceItem | null>(null),
    [client, open]
  )
  /** After a change: the list, the totals and the open invoice read again. */
  const refresh = (invoice: InvoiceItem) => {
    setEditing(false)
    setOpen({ kind: "invoice", id: invoice.id })
    void list.reload()
    void summary.reload()
  }
  return (
    <>
      <Loading loaded={summary.loaded} label="invoice totals">
        {(totals) => (
          <nav class="status-totals" aria-label="Invoices by status">
            <ul>
              <li>
                <button
                  type="button"
                  aria-pressed={status === ""}
                  onClick={() => {
                    setStatus("")
                    setCursors([null])
                  }}
                >
                  All
                </button>
              </li>
              {totals.statuses.map((total) => (
                <li key={total.status}>
                  <button
                    type="button"
                    aria-pressed={status === total.status}
                    onClick={() => {
                      setStatus(total.status)
                      setCursors([null])
                    }}
                  >
                    <span>{STATUS_WORDS[total.status]}</span> <span class="muted">{total.count}</span>{" "}
                    <span class="total">{formatMajorMoney(total.total, totals.currency)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </Loading>
      {canManage ? (
        customers.length === 0 ? (
          <p class="notice">Add a customer through the API (POST /customers) before you write an invoice.</p>
        ) : open.kind === "new" ? null : (
          <p>
            <button type="button" class="primary" onClick={() => setOpen({ kind: "new" })}>
              New invoice
            </button>
          </p>
        )
      ) : (
        <p class="muted">Only owners and admins can write, send or mark invoices paid.</p>
      )}
      {open.kind === "new" ? (
        <InvoiceEditor
          invoice={null}
          customers={customers}
          onSaved={refresh}
          onCancel={() => setOpen({ kind: "none" })}
        />
      ) : null}
      {open.kind === "invoice" ? (
        <Loading loaded={opened.loaded} label="the invoice">
          {(invoice) =>
            invoice === null ? null : editing ? (
              <InvoiceEditor
                invoice={invoice}
                customers={customers}
                onSaved={refresh}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <InvoiceDetail invoice={invoice} fileKey={fileKey} onChanged={refresh} onEdit={() => setEditing(true)} />
            )
          }
        </Loading>
      ) : null}
      <Loading loaded={list.loaded} label="invoices">
        {(page) =>
          page.data.length === 0 ? (
            <p class="empty" role="status">
              {status === "" ? "No invoices yet." : `No ${STATUS_WORDS[status].toLowerCase()} invoices.`}
            </p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="stack">
                  <caption class="visually-hidden">Invoices</caption>
                  <thead>
                    <tr>
                      <th scope="col">Number</th>
                      <th scope="col">Customer</th>
                      <th scope="col">Due</th>
                      <th scope="col" class="num">
                        Total
                      </th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((invoice) => (
                      <tr key={invoice.id} aria-selected={open.kind === "invoice" && open.id === invoice.id}>
                        <th scope="row">
                          <button
                            type="button"
                            class="link"
                            onClick={() => {
                              setEditing(false)
                              setOpen({ kind: "invoice", id: invoice.id })
                            }}
                          >
                            {invoice.invoiceNumber}
                          </button>
                        </th>
                        <td data-label="Customer">{invoice.customerName}</td>
                        <td data-label="Due">{formatDate(invoice.dueDate)}</td>
                        <td class="num" data-label="Total">
                          {formatMajorMoney(invoice.total, invoice.currency)}
                        </td>
                        <td data-label="Status">
                          <StatusBadge status={invoice.status} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager cursors={cursors} onChange={setCursors} meta={page.meta} />
            </>
          )
        }
      </Loading>
    </>
  )
}

import { useEffect, useState } from "preact/hooks"
import { useWorkspace } from "../../session/context.ts"
import { ActionButton, Field, Loading, PageHeader } from "../../ui/components.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { NO_FILTERS, STATUSES, type TransactionFilters, transactionQuery } from "./filters.ts"
import { loadReference, type Reference, type TagItem } from "./reference.ts"
import { type TransactionItem, TransactionRow } from "./TransactionRow.tsx"

/** The team's business-finance transactions: search, filters, and (owners and admins) categories, tags, receipts. */
export const Transactions = () => {
  const { client } = useWorkspace()
  const reference = useLoad(() => loadReference(client), [client])
  return (
    <>
      <PageHeader title="Transactions">
        Money in and out of the team's bank accounts, newest first. Categorise them, tag them and attach receipts so the
        reports add up.
      </PageHeader>
      <Loading loaded={reference.loaded} label="transactions">
        {(loaded) => <TransactionList initial={loaded} />}
      </Loading>
    </>
  )
}

/**
 * An amount filter's field: what the reader types is kept as they type it (a list loading meanwhile re-renders the
 * form without losing it) and applied when the field changes (leaving it, or Enter).
 */
const DraftInput = ({
  value,
  onApply,
  ...props
}: { readonly value: string; readonly onApply: (value: string) => void } & Record<string, unknown>) => {
  const [draft, setDraft] = useState(value)
  useEffect(() => setDraft(value), [value])
  return (
    <input
      {...props}
      type="text"
      inputMode="decimal"
      value={draft}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onChange={(event) => onApply(event.currentTarget.value)}
    />
  )
}

/** The pages read after the first, and rows changed on screen since they were read. */
interface More {
  readonly rows: ReadonlyArray<TransactionItem>
  readonly cursor: string | null
  readonly hasNextPage: boolean
}

const TransactionList = ({ initial }: { readonly initial: Reference }) => {
  const { client, canManage, team } = useWorkspace()
  const currency = team?.baseCurrency ?? "USD"
  const [reference, setReference] = useState(initial)
  const [filters, setFilters] = useState<TransactionFilters>(NO_FILTERS)
  const [search, setSearch] = useState("")
  const [more, setMore] = useState<More | null>(null)
  const [changed, setChanged] = useState<ReadonlyMap<string, TransactionItem>>(new Map())
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [bulkCategory, setBulkCategory] = useState("")
  const first = useLoad(
    () => client.transactions.list({ query: transactionQuery(filters, currency, null) }),
    [client, filters, currency]
  )
  /** Changes one filter (of the latest filters, however quickly the reader changes several) from the first page. */
  const apply = (name: keyof TransactionFilters, value: string) => {
    setFilters((previous) => ({ ...previous, [name]: value }))
    setMore(null)
    setChanged(new Map())
    setSelected(new Set())
  }
  const set = (name: keyof TransactionFilters) => (event: Event) =>
    apply(name, (event.currentTarget as HTMLInputElement | HTMLSelectElement).value)
  const replace = (rows: ReadonlyArray<TransactionItem>) =>
    setChanged((previous) => new Map([...previous, ...rows.map((row) => [row.id, row] as const)]))
  const addTag = (tag: TagItem) => setReference((previous) => ({ ...previous, tags: [...previous.tags, tag] }))
  return (
    <>
      <form
        class="search"
        aria-label="Search transactions"
        onSubmit={(event) => {
          event.preventDefault()
          apply("q", search)
        }}
      >
        <Field label="Search" help="Words of the name, description or counterparty">
          {(props) => (
            <input
              {...props}
              type="search"
              value={search}
              maxLength={200}
              onInput={(event) => setSearch(event.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit">Search</button>
      </form>
      <form class="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <Field label="From">
          {(props) => <input {...props} type="date" value={filters.from} onChange={set("from")} />}
        </Field>
        <Field label="To">{(props) => <input {...props} type="date" value={filters.to} onChange={set("to")} />}</Field>
        <Field label="Category">
          {(props) => (
            <select {...props} value={filters.category} onChange={set("category")}>
              <option value="">Any category</option>
              <option value="uncategorized">Uncategorised</option>
              {reference.categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status">
          {(props) => (
            <select {...props} value={filters.status} onChange={set("status")}>
              <option value="">Any status</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Account">
          {(props) => (
            <select {...props} value={filters.account} onChange={set("account")}>
              <option value="">Any account</option>
              {reference.accounts.map((account) => (
                <option key={account.id} value={account.id}>
                  {account.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={`Amount from (${currency})`}>
          {(props) => (
            <DraftInput {...props} value={filters.amountMin} onApply={(value) => apply("amountMin", value)} />
          )}
        </Field>
        <Field label={`Amount to (${currency})`}>
          {(props) => (
            <DraftInput {...props} value={filters.amountMax} onApply={(value) => apply("amountMax", value)} />
          )}
        </Field>
        <Field label="Receipt">
          {(props) => (
            <select {...props} value={filters.attachments} onChange={set("attachments")}>
              <option value="">With or without</option>
              <option value="true">Has a receipt</option>
              <option value="false">No receipt</option>
            </select>
          )}
        </Field>
      </form>
      {canManage ? null : <p class="muted">Only owners and admins can change transactions.</p>}
      <Loading loaded={first.loaded} label="transactions">
        {(page) => {
          const rows = [...page.data, ...(more?.rows ?? [])].map((row) => changed.get(row.id) ?? row)
          const last = more ?? { cursor: page.meta.cursor, hasNextPage: page.meta.hasNextPage }
          const chosen = rows.filter((row) => selected.has(row.id))
          if (rows.length === 0) {
            return (
              <p class="empty" role="status">
                No transactions match. Transactions of connected bank accounts and those recorded through the API appear
                here.
              </p>
            )
          }
          return (
            <>
              {canManage && chosen.length > 0 ? (
                <form class="bulk" aria-label="Selected transactions" onSubmit={(event) => event.preventDefault()}>
                  <span role="status">{chosen.length} selected</span>
                  <Field label="Category for the selected">
                    {(props) => (
                      <select
                        {...props}
                        value={bulkCategory}
                        onChange={(event) => setBulkCategory(event.currentTarget.value)}
                      >
                        <option value="">Uncategorised</option>
                        {reference.categories.map((category) => (
                          <option key={category.id} value={category.id}>
                            {category.name}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <ActionButton
                    kind="primary"
                    action={() =>
                      client.transactions
                        .updateMany({
                          payload: {
                            ids: chosen.map((row) => row.id),
                            categoryId: bulkCategory === "" ? null : bulkCategory
                          }
                        })
                        .then((body) => {
                          replace(body.data)
                          setSelected(new Set())
                        })
                    }
                  >
                    Categorise {chosen.length}
                  </ActionButton>
                </form>
              ) : null}
              <div class="table-wrap">
                <table class="stack transactions">
                  <caption class="visually-hidden">Transactions</caption>
                  <thead>
                    <tr>
                      {canManage ? (
                        <th scope="col">
                          <input
                            type="checkbox"
                            aria-label="Select all shown"
                            checked={chosen.length === rows.length}
                            onChange={(event) =>
                              setSelected(new Set(event.currentTarget.checked ? rows.map((row) => row.id) : []))
                            }
                          />
                        </th>
                      ) : null}
                      <th scope="col">Date</th>
                      <th scope="col">Name</th>
                      <th scope="col" class="num">
                        Amount
                      </th>
                      <th scope="col">Category</th>
                      <th scope="col">Tags</th>
                      <th scope="col">Status</th>
                      <th scope="col">Receipt</th>
                      {canManage ? <th scope="col">Reports</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <TransactionRow
                        key={row.id}
                        transaction={row}
                        reference={reference}
                        selected={selected.has(row.id)}
                        onSelect={(on) =>
                          setSelected((previous) => {
                            const next = new Set(previous)
                            if (on) next.add(row.id)
                            else next.delete(row.id)
                            return next
                          })
                        }
                        onChanged={(updated) => replace([updated])}
                        onTagCreated={addTag}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              {last.hasNextPage && last.cursor !== null ? (
                <nav class="pager" aria-label="More transactions">
                  <ActionButton
                    action={() =>
                      client.transactions
                        .list({ query: transactionQuery(filters, currency, last.cursor) })
                        .then((next) =>
                          setMore({
                            rows: [...(more?.rows ?? []), ...next.data],
                            cursor: next.meta.cursor,
                            hasNextPage: next.meta.hasNextPage
                          })
                        )
                    }
                  >
                    Load more
                  </ActionButton>
                </nav>
              ) : null}
            </>
          )
        }}
      </Loading>
    </>
  )
}

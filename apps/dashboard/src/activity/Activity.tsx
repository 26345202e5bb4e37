import { useState } from "preact/hooks"
import { formatDateTime } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { useKeyNames } from "../session/keys.ts"
import { type Mode, modeWithData } from "../session/modes.ts"
import { Field, Link, Loading, ModeBadge, Money, PageHeader, Pager, StatusBadge } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"
import { type ActivityFilters, activityQuery, KINDS, kindWord, NO_FILTERS, statusesOf } from "./filters.ts"

/**
 * Everything the team's agents asked for, newest first, filtered by kind, status, key, mode and date; one mode at a
 * time unless the reader asks for both, the mode with activity first.
 */
export const Activity = () => {
  const { client } = useWorkspace()
  const initial = useLoad(
    () =>
      modeWithData((mode) => client.treasury.activity({ query: { limit: 1, mode } }).then((p) => p.data.length > 0)),
    [client]
  )
  return (
    <>
      <PageHeader title="Activity">
        Spend requests, transfers and checkouts your agents made, newest first. Open one to see its decision trail and
        the ledger movements it caused.
      </PageHeader>
      <Loading loaded={initial.loaded} label="activity">
        {(mode) => <ActivityList mode={mode} />}
      </Loading>
    </>
  )
}

const ActivityList = ({ mode }: { readonly mode: Mode }) => {
  const { client } = useWorkspace()
  const [filters, setFilters] = useState<ActivityFilters>({ ...NO_FILTERS, mode })
  const [cursors, setCursors] = useState<ReadonlyArray<string | null>>([null])
  const cursor = cursors[cursors.length - 1] ?? null
  const keys = useKeyNames()
  const items = useLoad(
    () => client.treasury.activity({ query: activityQuery(filters, cursor) }),
    [client, filters, cursor]
  )
  const set = (name: keyof ActivityFilters) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement | HTMLSelectElement).value
    const next = { ...filters, [name]: value } as ActivityFilters
    setFilters(name === "kind" && !statusesOf(next.kind).includes(next.status) ? { ...next, status: "" } : next)
    setCursors([null])
  }
  return (
    <>
      <form class="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <Field label="Kind">
          {(props) => (
            <select {...props} value={filters.kind} onChange={set("kind")}>
              <option value="">All kinds</option>
              {KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}s
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status">
          {(props) => (
            <select {...props} value={filters.status} onChange={set("status")}>
              <option value="">Any status</option>
              {statusesOf(filters.kind).map((status) => (
                <option key={status} value={status}>
                  {status.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Key">
          {(props) => (
            <select {...props} value={filters.keyId} onChange={set("keyId")}>
              <option value="">Any key</option>
              {keys.map((key) => (
                <option key={key.id} value={key.id}>
                  {key.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Mode">
          {(props) => (
            <select {...props} value={filters.mode} onChange={set("mode")}>
              <option value="">Live and test</option>
              <option value="live">Live</option>
              <option value="test">Test</option>
            </select>
          )}
        </Field>
        <Field label="From">
          {(props) => <input {...props} type="date" value={filters.from} onChange={set("from")} />}
        </Field>
        <Field label="To">{(props) => <input {...props} type="date" value={filters.to} onChange={set("to")} />}</Field>
      </form>
      <Loading loaded={items.loaded} label="activity">
        {(page) =>
          page.data.length === 0 ? (
            <p class="empty" role="status">
              Nothing matches. Requests your agents make with their spending keys appear here.
            </p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="stack">
                  <caption class="visually-hidden">Activity</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">What</th>
                      <th scope="col">Key</th>
                      <th scope="col">Counterparty</th>
                      <th scope="col" class="num">
                        Amount
                      </th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((item) => (
                      <tr key={`${item.kind}-${item.id}`}>
                        <td data-label="When">{formatDateTime(item.createdAt)}</td>
                        <td data-label="What">
                          <Link to={`/activity/${item.kind}/${encodeURIComponent(item.id)}`}>
                            {kindWord(item.kind)}
                            {item.purpose === null || item.purpose === "" ? "" : `: ${item.purpose}`}
                          </Link>{" "}
                          <ModeBadge mode={item.mode} />
                        </td>
                        <td data-label="Key">{item.keyName ?? "—"}</td>
                        <td data-label="Counterparty">{item.counterparty ?? "—"}</td>
                        <td class="num" data-label="Amount">
                          <Money amount={item.amount} currency={item.currency} />
                        </td>
                        <td data-label="Status">
                          <StatusBadge status={item.status} />
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

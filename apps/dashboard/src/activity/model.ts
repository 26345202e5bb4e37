import { callJson } from "../session/api.ts"

/** One spend request, transfer or checkout intent in the team's activity. */
export interface ActivityItem {
  readonly object: "activity"
  readonly kind: "spend_request" | "transfer" | "checkout_intent"
  readonly id: string
  readonly mode: "live" | "test"
  readonly keyId: string | null
  readonly keyName: string | null
  readonly amount: number
  readonly currency: string
  readonly status: string
  readonly counterparty: string | null
  readonly purpose: string | null
  readonly createdAt: string
  readonly approvalId: string | null
}

/** A page of a list, with the cursor of the next one. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: { readonly cursor: string | null; readonly hasNextPage: boolean }
}

/** A ledger transaction with its entries (credit positive, minor units). */
export interface LedgerTransaction {
  readonly id: string
  readonly kind: string
  readonly code: string
  readonly reference: string
  readonly createdAt: string
  readonly entries: ReadonlyArray<{
    readonly accountId: string
    readonly amount: number
    readonly currency: string
    readonly pending: boolean
  }>
}

/** An item with the decisions it went through and the ledger movements it caused. */
export interface ActivityDetailBody {
  readonly item: ActivityItem
  readonly trail: ReadonlyArray<{
    readonly at: string
    readonly action: string
    readonly actor: string | null
    readonly detail: string | null
  }>
  readonly ledgerTransactions: ReadonlyArray<LedgerTransaction>
}

/** What the activity list is filtered by; empty strings are no filter. */
export interface ActivityFilters {
  readonly kind: string
  readonly status: string
  readonly keyId: string
  readonly from: string
  readonly to: string
}

/** One page of the team's activity under the filters. */
export const listActivity = (filters: ActivityFilters, cursor: string | null) =>
  callJson<Page<ActivityItem>>("GET", "/treasury/activity", {
    query: {
      kind: filters.kind,
      status: filters.status,
      keyId: filters.keyId,
      from: filters.from === "" ? undefined : new Date(`${filters.from}T00:00:00`).toISOString(),
      to: filters.to === "" ? undefined : new Date(`${filters.to}T23:59:59.999`).toISOString(),
      limit: 50,
      cursor: cursor ?? undefined
    }
  })

/** One item with its trail and ledger transactions. */
export const activityDetail = (kind: string, id: string) =>
  callJson<ActivityDetailBody>("GET", `/treasury/activity/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`)

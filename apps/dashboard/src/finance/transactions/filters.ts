import type { PromiseClient } from "@svc/sdk"

/** The statuses a business-finance transaction may have, as the API names them. */
export const STATUSES = ["pending", "posted", "completed", "archived", "excluded", "exported"] as const

/** What the reader narrowed the transaction list to; "" is no filter. */
export interface TransactionFilters {
  readonly q: string
  readonly from: string
  readonly to: string
  readonly category: string
  readonly status: string
  readonly account: string
  /** Absolute amounts in major units of the team's base currency, as typed. */
  readonly amountMin: string
  readonly amountMax: string
  /** "true", "false" or "". */
  readonly attachments: string
}

export const NO_FILTERS: TransactionFilters = {
  q: "",
  from: "",
  to: "",
  category: "",
  status: "",
  account: "",
  amountMin: "",
  amountMax: "",
  attachments: ""
}

type ListQuery = NonNullable<Parameters<PromiseClient["transactions"]["list"]>[0]["query"]>

/** The page size of the list; "Load more" reads the next one. */
const PAGE = 25

/**
 * The list query of the filters from `cursor`: an amount bound is compared in `currency` (the API requires one with
 * it), so it also keeps the transactions of that currency only.
 */
export const transactionQuery = (filters: TransactionFilters, currency: string, cursor: string | null): ListQuery => {
  const given = (value: string) => value.trim() !== ""
  const bounded = given(filters.amountMin) || given(filters.amountMax)
  return {
    limit: PAGE,
    ...(cursor === null ? {} : { cursor }),
    ...(given(filters.q) ? { q: filters.q.trim() } : {}),
    ...(given(filters.from) ? { from: filters.from } : {}),
    ...(given(filters.to) ? { to: filters.to } : {}),
    ...(given(filters.category) ? { categories: filters.category } : {}),
    ...(given(filters.status) ? { statuses: filters.status } : {}),
    ...(given(filters.account) ? { bankAccounts: filters.account } : {}),
    ...(given(filters.amountMin) ? { amountMin: filters.amountMin.trim() } : {}),
    ...(given(filters.amountMax) ? { amountMax: filters.amountMax.trim() } : {}),
    ...(bounded ? { currency } : {}),
    ...(filters.attachments === "true" || filters.attachments === "false" ? { attachments: filters.attachments } : {})
  }
}

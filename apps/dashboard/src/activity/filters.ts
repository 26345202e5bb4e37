import { CheckoutIntentStatus, SpendRequestStatus, TransferStatus } from "@svc/domain/model"
import type { ActivityItem } from "@svc/sdk"

/** The kinds of activity, in the words the filters and rows use. */
export const KINDS: ReadonlyArray<readonly [ActivityItem["kind"], string]> = [
  ["spend_request", "Spend request"],
  ["transfer", "Transfer"],
  ["checkout_intent", "Checkout"]
]

const STATUSES: Readonly<Record<ActivityItem["kind"], ReadonlyArray<string>>> = {
  spend_request: SpendRequestStatus.literals,
  transfer: TransferStatus.literals,
  checkout_intent: CheckoutIntentStatus.literals
}

/** Whether a path segment names a kind of activity. */
export const isKind = (text: string): text is ActivityItem["kind"] => KINDS.some(([kind]) => kind === text)

/** The statuses an item of `kind` can have; of any kind when none is chosen. */
export const statusesOf = (kind: ActivityItem["kind"] | ""): ReadonlyArray<string> =>
  kind === "" ? [...new Set(Object.values(STATUSES).flat())] : STATUSES[kind]

/** The word for a kind of activity. */
export const kindWord = (kind: ActivityItem["kind"]): string => KINDS.find(([k]) => k === kind)?.[1] ?? kind

/** What the activity list is filtered by; empty strings are no filter; dates are the reader's local days. */
export interface ActivityFilters {
  readonly kind: ActivityItem["kind"] | ""
  readonly status: string
  readonly keyId: string
  readonly mode: "live" | "test" | ""
  readonly from: string
  readonly to: string
}

export const NO_FILTERS: ActivityFilters = { kind: "", status: "", keyId: "", mode: "", from: "", to: "" }

/** The start of a local calendar day as an instant, `days` later. */
const localMidnight = (date: string, days = 0) => {
  const [year = 0, month = 1, day = 1] = date.split("-").map(Number)
  return new Date(year, month - 1, day + days).toISOString()
}

/** The list's query for the filters: `from` the start of its day, `to` the end of its day (exclusive next midnight). */
export const activityQuery = (filters: ActivityFilters, cursor: string | null) => ({
  limit: 50,
  ...(filters.kind === "" ? {} : { kind: filters.kind }),
  ...(filters.status === "" ? {} : { status: filters.status }),
  ...(filters.keyId === "" ? {} : { keyId: filters.keyId }),
  ...(filters.mode === "" ? {} : { mode: filters.mode }),
  ...(filters.from === "" ? {} : { from: localMidnight(filters.from) }),
  ...(filters.to === "" ? {} : { to: localMidnight(filters.to, 1) }),
  ...(cursor === null ? {} : { cursor })
})

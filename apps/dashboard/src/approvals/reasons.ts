import { formatMoney } from "../format/money.ts"

/** A policy reason with the numbers the decision carries (amounts in minor units of the request's currency). */
export interface Reason {
  readonly code: string
  readonly message: string
  readonly limit?: number
  readonly used?: number
  readonly requested?: number
}

const LABELS: Readonly<Record<string, string>> = {
  approval_threshold: "Over the key's approval threshold",
  new_merchant: "First payment to this merchant",
  amount_over_limit: "Over the per-request limit",
  daily_budget_exceeded: "Over the daily budget",
  weekly_budget_exceeded: "Over the weekly budget",
  monthly_budget_exceeded: "Over the monthly budget",
  yearly_budget_exceeded: "Over the yearly budget",
  lifetime_budget_exceeded: "Over the lifetime budget",
  category_budget_exceeded: "Over the category budget",
  insufficient_funds: "Not enough funds",
  velocity_exceeded: "Too many requests",
  merchant_blocked: "Merchant blocked",
  category_blocked: "Category blocked",
  outside_allowed_hours: "Outside the allowed hours",
  spending_frozen: "Spending is frozen"
}

/** Reasons whose numbers are counts of requests, not money. */
const COUNTS = new Set(["velocity_exceeded"])

/** A reason in words, with its limit and what was used in money of `currency` ("Over the … threshold ($10.00)"). */
export const describeReason = (reason: Reason, currency: string | null): string => {
  const label = LABELS[reason.code]
  if (label === undefined) return reason.message
  const amount = (value: number) =>
    COUNTS.has(reason.code) || currency === null ? String(value) : formatMoney(value, currency)
  const numbers = [
    reason.limit === undefined ? null : `limit ${amount(reason.limit)}`,
    reason.used === undefined || reason.used === 0 ? null : `already used ${amount(reason.used)}`
  ].filter((part) => part !== null)
  return numbers.length === 0 ? label : `${label} (${numbers.join(", ")})`
}

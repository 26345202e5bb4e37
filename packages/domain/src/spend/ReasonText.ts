import type { DecisionReasonCode } from "./SpendPolicy.ts"

/** The figures of a policy reason that people read (amounts in minor units of the request's currency). */
export interface ReasonFigures {
  readonly code: string
  readonly message: string
  readonly limit?: number | undefined
  readonly used?: number | undefined
  readonly available?: number | undefined
}

const LABELS: Readonly<Record<DecisionReasonCode, string>> = {
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

const isKnownCode = (code: string): code is DecisionReasonCode => Object.hasOwn(LABELS, code)

/**
 * A policy reason as people read it beside the request's amount: what fired in words, then its limit, what was already
 * used and the available balance, money written by `money` (the caller's formatter, so the figures read like the amount
 * beside them; null when the currency is unknown: plain minor units) and counts as counts. A code this version does not
 * know reads as the service's `message`.
 */
export const describeReason = (reason: ReasonFigures, money: ((amountMinor: number) => string) | null): string => {
  if (!isKnownCode(reason.code)) return reason.message
  const figure = (value: number) =>
    reason.code === "velocity_exceeded" || money === null ? String(value) : money(value)
  const figures = [
    reason.limit === undefined ? null : `limit ${figure(reason.limit)}`,
    reason.used === undefined || reason.used === 0 ? null : `already used ${figure(reason.used)}`,
    reason.available === undefined ? null : `available ${figure(reason.available)}`
  ].filter((part) => part !== null)
  const label = LABELS[reason.code]
  return figures.length === 0 ? label : `${label} (${figures.join(", ")})`
}

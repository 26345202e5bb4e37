import { evaluateSpend, NO_USAGE, type SpendEvaluationInput, type UsageTotals } from "../../src/spend/model.ts"

/** Wednesday 18 November 2026, 12:00 UTC: the moment the examples are decided at. */
export const NOW = Date.parse("2026-11-18T12:00:00.000Z")

/** Totals with `totals` spent and nothing in the other intervals. */
export const spentOf = (totals: Partial<UsageTotals>): UsageTotals => ({ ...NO_USAGE, ...totals })

const base: SpendEvaluationInput = {
  policy: {},
  amount: 1000,
  merchant: { name: "Acme Cloud", category: "software" },
  now: NOW,
  spent: NO_USAGE,
  categorySpent: NO_USAGE,
  recentRequests: [],
  requestsToday: 0,
  available: 1_000_000
}

/** `evaluateSpend` of a 1000 software purchase from Acme Cloud, ample funds and an empty policy, with `overrides`. */
export const evaluate = (overrides: Partial<SpendEvaluationInput>) => evaluateSpend({ ...base, ...overrides })

/** The reason codes `evaluate(overrides)` gives. */
export const codes = (overrides: Partial<SpendEvaluationInput>) => evaluate(overrides).reasons.map((r) => r.code)

import { evaluateSpend, type SpendEvaluationInput } from "../../src/spend/SpendPolicy.ts"

const base: SpendEvaluationInput = {
  policy: {},
  amount: 1000,
  merchant: { name: "Acme Cloud", category: "software" },
  spentToday: 0,
  spentThisMonth: 0,
  available: 1_000_000,
  now: Date.parse("2024-03-13T12:00:00.000Z")
}

/** `evaluateSpend` of a 1000 software purchase from Acme Cloud, ample funds and an empty policy, with `overrides`. */
export const evaluate = (overrides: Partial<SpendEvaluationInput>) => evaluateSpend({ ...base, ...overrides })

/** The reason codes `evaluate(overrides)` gives. */
export const codes = (overrides: Partial<SpendEvaluationInput>) => evaluate(overrides).reasons.map((r) => r.code)

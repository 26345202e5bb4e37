/** The spend context's shapes and pure rules: no services, so clients may import them. */

export * from "./AllowedHours.ts"
export * from "./BudgetPeriods.ts"
export * from "./ReasonText.ts"
export * from "./SpendEvaluation.ts"
export * from "./SpendFreeze.ts"
export * from "./SpendPolicy.ts"
export * from "./SpendRequest.ts"

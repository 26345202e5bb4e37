export * from "./ExchangeRates.ts"
export * from "./ExchangeRateTable.ts"
export * from "./model.ts"

export * from "./ExchangeRates.ts"
export * from "./model.ts"

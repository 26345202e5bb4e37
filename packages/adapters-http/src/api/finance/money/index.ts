export * from "./ExchangeRatesApi.ts"

export * from "./ExchangeRatesHttp.ts"

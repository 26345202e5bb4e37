export * from "./CryptoDestinationsApi.ts"
export * from "./CryptoQuotesApi.ts"

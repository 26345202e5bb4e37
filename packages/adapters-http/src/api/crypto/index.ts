export * from "./CryptoDestinationsApi.ts"
export * from "./CryptoPayoutsApi.ts"
export * from "./CryptoQuotesApi.ts"

export * from "./CryptoDestinationsHttp.ts"
export * from "./CryptoPayoutsHttp.ts"
export * from "./CryptoQuotesHttp.ts"

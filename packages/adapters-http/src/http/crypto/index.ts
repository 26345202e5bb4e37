export * from "./CryptoDestinationsHttp.ts"
export * from "./CryptoQuotesHttp.ts"

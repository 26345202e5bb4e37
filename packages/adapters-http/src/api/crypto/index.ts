export * from "./CryptoPayoutsApi.ts"

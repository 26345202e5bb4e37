export * from "./CryptoPayoutsHttp.ts"

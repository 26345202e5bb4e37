export * from "./CryptoRepos.ts"
export * from "./model.ts"
export * from "./PayoutRail.ts"

export * from "./AccountsApi.ts"

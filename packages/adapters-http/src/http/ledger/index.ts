export * from "./AccountsHttp.ts"

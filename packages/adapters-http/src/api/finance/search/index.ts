export * from "./SearchApi.ts"

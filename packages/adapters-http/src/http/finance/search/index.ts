export * from "./SearchHttp.ts"

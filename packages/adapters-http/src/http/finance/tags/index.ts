export * from "./TagsHttp.ts"

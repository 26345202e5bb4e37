export * from "./TagsApi.ts"

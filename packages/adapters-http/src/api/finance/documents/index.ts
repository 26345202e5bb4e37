export * from "./DocumentsApi.ts"
export * from "./InboxApi.ts"

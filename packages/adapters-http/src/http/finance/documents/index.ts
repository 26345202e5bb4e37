export * from "./DocumentsHttp.ts"
export * from "./InboxHttp.ts"

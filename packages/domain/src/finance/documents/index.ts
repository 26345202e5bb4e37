export * from "./Documents.ts"
export * from "./Inbox.ts"
export * from "./InboxAddress.ts"
export * from "./model.ts"

export * from "./Documents.ts"
export * from "./InboxAddress.ts"
export * from "./InboxItems.ts"
export * from "./model.ts"

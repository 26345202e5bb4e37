export * from "./InboxAddress.ts"
export * from "./InboxItems.ts"

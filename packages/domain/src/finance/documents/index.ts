export * from "./InboxItems.ts"

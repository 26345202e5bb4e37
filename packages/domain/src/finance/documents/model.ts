/** The documents context's shapes: no services, so clients may import them. */
export * from "./Document.ts"
export * from "./InboxItems.ts"
export * from "./InboxSuggestions.ts"

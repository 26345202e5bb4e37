/** The search context's shapes and pure rules: no services, so clients may import them. */
export * from "./SearchErrors.ts"
export * from "./SearchResult.ts"

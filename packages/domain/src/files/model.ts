/** The files context's shapes and pure rules: no services, so clients may import them. */
export * from "./FileErrors.ts"
export * from "./StorageKey.ts"

/** The shared kernel's shapes and pure rules: no services, so clients may import them. */
export * from "./Ids.ts"
export * from "./internal/Encoding.ts"
export * from "./Money.ts"
export * from "./Pagination.ts"
export * from "./Persistence.ts"
export * from "./Random.ts"
export * from "./Secrets.ts"
export * from "./Time.ts"

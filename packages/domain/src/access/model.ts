/** The access context's shapes and pure rules: no services, so clients may import them. */
export * from "./AgentKey.ts"
export * from "./ApiKey.ts"
export * from "./PolicyVersion.ts"
export * from "./Principals.ts"

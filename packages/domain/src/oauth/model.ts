/** The OAuth context's shapes and pure rules: no services, so clients may import them. */
export * from "./OAuthEntities.ts"
export * from "./Scopes.ts"

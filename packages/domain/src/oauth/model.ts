/** The OAuth context's shapes and pure rules: no services, so clients may import them. */
export * from "./ApplicationDetails.ts"
export * from "./OAuthEntities.ts"
export * from "./RedirectUris.ts"
export * from "./Scopes.ts"

export * from "./OAuthApplicationsHttp.ts"
export * from "./OAuthHttp.ts"
export * from "./OAuthResponses.ts"
export * from "./WellKnownHttp.ts"

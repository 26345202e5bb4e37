export * from "./OAuthApi.ts"
export * from "./OAuthApplicationsApi.ts"
export * from "./WellKnownApi.ts"

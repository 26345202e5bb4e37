export * from "./OAuthApi.ts"
export * from "./WellKnownApi.ts"

export type {
  AuthorizationDecision,
  AuthorizationRequest,
  AuthorizationResponse,
  Consent
} from "./AuthorizationCodes.ts"
export type { ClientCredentials } from "./ClientAuthentication.ts"
export type { RegisterClient, RegisteredClient } from "./ClientRegistration.ts"
export * from "./model.ts"
export * from "./OAuthApplications.ts"
export * from "./OAuthCredentials.ts"
export * from "./OAuthError.ts"
export * from "./OAuthPurge.ts"
export * from "./OAuthRepo.ts"
export * from "./OAuthServer.ts"
export * from "./Pkce.ts"
export type { TokenSet } from "./TokenGrants.ts"

export * from "./api/index.ts"
export {
  AuthenticationLive,
  ClientAddress,
  ErrorHandlingLive,
  IdempotencyLive,
  looksLikeJwt,
  PublicBaseUrl,
  parseTrustedProxies,
  RateLimitV1,
  rateLimitHeaders,
  SecurityHeaders,
  SessionTokens,
  UnknownCredentialLimiter
} from "./http/middleware/index.ts"
export { Readiness } from "./http/platform/index.ts"
export { ApiRoutes } from "./http/Server.ts"

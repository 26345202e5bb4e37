export * from "./api/index.ts"
export {
  AuthenticationLive,
  ErrorHandlingLive,
  IdempotencyLive,
  looksLikeJwt,
  PublicBaseUrl,
  RateLimitV1,
  rateLimitHeaders,
  SecurityHeaders,
  SessionTokens,
  UnknownCredentialLimiter
} from "./http/middleware/index.ts"
export { Readiness } from "./http/platform/index.ts"
export { ApiRoutes } from "./http/Server.ts"

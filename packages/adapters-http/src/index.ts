export * from "./api/index.ts"
export { DashboardRoutes } from "./http/dashboard/index.ts"
export { InvoiceRendererPdf } from "./http/finance/invoices/index.ts"
export { DashboardUrl } from "./http/integrations/index.ts"
export {
  AuthenticationLive,
  answerClientErrorsAsJson,
  ClientAddress,
  DeprecationHeadersLive,
  ErrorHandlingLive,
  IdempotencyLive,
  InProcessToolCall,
  looksLikeJwt,
  PublicBaseUrl,
  parseTrustedProxies,
  RateLimitSignIn,
  RateLimitV1,
  ReadYourWritesHttp,
  RequestMetrics,
  ResolvedAgents,
  rateLimitHeaders,
  SecurityHeaders,
  SessionTokens,
  UnknownCredentialLimiter
} from "./http/middleware/index.ts"
export { OAuthRateLimit } from "./http/oauth/index.ts"
export { DesktopReleases, MetricsRoute, Readiness } from "./http/platform/index.ts"
export { ApiRoutes } from "./http/Server.ts"

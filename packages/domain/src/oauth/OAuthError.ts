import { Schema } from "effect"

/** The RFC 6749 / 7591 / 8707 error codes the authorization server answers with. */
export const OAuthErrorCode = Schema.Literals([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "access_denied",
  "invalid_target",
  "invalid_redirect_uri",
  "invalid_client_metadata"
])
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/**
 * An OAuth protocol error. `redirectable` says whether the client and redirect URI were verified, so the error may
 * be sent back to the client's redirect URI (RFC 6749 4.1.2.1).
 */
export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  error: OAuthErrorCode,
  description: Schema.String,
  redirectable: Schema.Boolean
}) {}

/** An OAuth error that must never be redirected (unknown client, unverified redirect URI, token endpoint errors). */
export const oauthError = (error: OAuthErrorCode, description: string) =>
  new OAuthError({ error, description, redirectable: false })

/** An OAuth error about a request whose client and redirect URI were verified. */
export const redirectableError = (error: OAuthErrorCode, description: string) =>
  new OAuthError({ error, description, redirectable: true })

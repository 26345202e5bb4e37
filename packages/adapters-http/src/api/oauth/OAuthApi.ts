import { DECISION_SCOPES, OAuthApplication } from "@svc/domain/model"
import { Schema, Struct } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "effect/http-api"
import { InputLimits, SessionAuth, Unauthorized } from "../shared/index.ts"

const oauthErrorFields = {
  error: Schema.String.annotate({ description: "An RFC 6749 error code, e.g. invalid_request, invalid_grant" }),
  error_description: Schema.optionalKey(Schema.String),
  error_uri: Schema.optionalKey(Schema.String),
  state: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1024)))
}

/** 400 OAuthErrorResponse (RFC 6749 5.2). */
export class OAuthBadRequest extends Schema.Error<OAuthBadRequest>("OAuthBadRequest")(oauthErrorFields, {
  httpApiStatus: 400,
  description: "OAuthErrorResponse: `{error, error_description?, error_uri?, state?}`"
}) {}

/** 401 OAuthErrorResponse: `invalid_client` at the token and revocation endpoints. */
export class OAuthUnauthorized extends Schema.Error<OAuthUnauthorized>("OAuthUnauthorized")(oauthErrorFields, {
  httpApiStatus: 401,
  description: "OAuthErrorResponse with error `invalid_client`: client authentication failed"
}) {}

/** 429 OAuthErrorResponse `rate_limited`, with Retry-After. */
export class OAuthRateLimited extends Schema.Error<OAuthRateLimited>("OAuthRateLimited")(oauthErrorFields, {
  httpApiStatus: 429,
  description: "OAuthErrorResponse with error `rate_limited`: too many requests from this client IP; see Retry-After"
}) {}

/** 503 OAuthErrorResponse `temporarily_unavailable`. */
export class OAuthUnavailable extends Schema.Error<OAuthUnavailable>("OAuthUnavailable")(oauthErrorFields, {
  httpApiStatus: 503,
  description: "OAuthErrorResponse with error `temporarily_unavailable`: retry later"
}) {}

/**
 * Every /oauth/* route: a per-client-IP rate limit, RFC 6749 error bodies for malformed requests, and
 * `Cache-Control: no-store`.
 */
export class OAuthGuard extends HttpApiMiddleware.Service<OAuthGuard>()("@svc/adapters-http/OAuthGuard", {
  error: [OAuthBadRequest, OAuthRateLimited, OAuthUnavailable]
}) {}

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const Uri = Schema.String.check(Schema.isBetweenLength(1, 2000))

/** RFC 7591 client metadata; metadata this server does not use is accepted and ignored. */
export const RegisterClientRequest = Schema.Struct({
  client_name: Schema.String.check(Schema.isBetweenLength(1, 256)),
  redirect_uris: Schema.Array(Uri).check(Schema.isMinLength(1), Schema.isMaxLength(20)),
  grant_types: Schema.optionalKey(Schema.Array(Text(64)).check(Schema.isMaxLength(10))),
  token_endpoint_auth_method: Schema.optionalKey(Text(64)),
  scope: Schema.optionalKey(Text(2000)),
  logo_uri: Schema.optionalKey(Uri),
  client_uri: Schema.optionalKey(Uri),
  response_types: Schema.optionalKey(Schema.Array(Text(64)).check(Schema.isMaxLength(10)))
})

/** RFC 7591 3.2.1 client information response. */
export const RegisterClientResponse = Schema.Struct({
  client_id: Schema.String,
  client_name: Schema.String,
  redirect_uris: Schema.Array(Schema.String),
  grant_types: Schema.Array(Schema.String),
  token_endpoint_auth_method: Schema.String,
  response_types: Schema.Array(Schema.String),
  client_id_issued_at: Schema.Int,
  client_secret: Schema.optionalKey(Schema.String),
  client_secret_expires_at: Schema.optionalKey(Schema.Int),
  scope: Schema.optionalKey(Schema.String),
  logo_uri: Schema.optionalKey(Schema.String),
  client_uri: Schema.optionalKey(Schema.String)
})

/** The application's fields a consent screen shows. */
export const CONSENT_FIELDS = [
  "id",
  "name",
  "description",
  "overview",
  "developerName",
  "logoUrl",
  "website",
  "installUrl",
  "screenshots",
  "clientId",
  "status"
] as const

/** The consent screen's information: the application's public fields and the request being consented to. */
export const OAuthApplicationResponse = Schema.Struct({
  ...Struct.pick(OAuthApplication.fields, CONSENT_FIELDS),
  scopes: Schema.Array(Schema.String),
  redirectUri: Schema.String,
  state: Schema.optionalKey(Schema.String)
})

/** The user's decision. */
export const AuthorizationDecisionRequest = Schema.Struct({
  client_id: Text(256),
  decision: Schema.Literals(["allow", "deny"]),
  scopes: Schema.Array(Schema.Literals(DECISION_SCOPES)).check(Schema.isMaxLength(DECISION_SCOPES.length)),
  redirect_uri: Uri,
  state: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 1024))),
  code_challenge: Schema.optionalKey(Text(128)),
  teamId: Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" }))
})

/** Where the user agent goes next: the client's redirect URI with `code`/`state`/`iss`, or `error`/`error_description`/`state`. */
export const RedirectResponse = Schema.Struct({ redirect_url: Schema.String })

const tokenFields = {
  grant_type: Text(64),
  code: Schema.optionalKey(Text(512)),
  redirect_uri: Schema.optionalKey(Text(2000)),
  code_verifier: Schema.optionalKey(Text(512)),
  client_id: Schema.optionalKey(Text(256)),
  client_secret: Schema.optionalKey(Text(512)),
  refresh_token: Schema.optionalKey(Text(512)),
  scope: Schema.optionalKey(Text(2000)),
  resource: Schema.optionalKey(Text(2000))
}

/** The token request (RFC 6749 4.1.3 and 6), as JSON or form-urlencoded. */
export const TokenRequest = Schema.Struct(tokenFields)

/** RFC 6749 5.1 token response. */
export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  refresh_token: Schema.String,
  scope: Schema.String
})

const revokeFields = {
  token: Text(512),
  token_type_hint: Schema.optionalKey(Text(64)),
  client_id: Schema.optionalKey(Text(256)),
  client_secret: Schema.optionalKey(Text(512))
}

/** The revocation request (RFC 7009 2.1), as JSON or form-urlencoded. */
export const RevokeRequest = Schema.Struct(revokeFields)

const lenient = { errors: "all" } as const

/** The OAuth 2.0 authorization server. */
export class OAuthApi extends HttpApiGroup.make("oauth")
  .add(
    HttpApiEndpoint.post("register", "/oauth/register", {
      payload: RegisterClientRequest,
      success: RegisterClientResponse.pipe(HttpApiSchema.status(201)),
      error: OAuthBadRequest
    })
      .annotate(HttpApi.PayloadParseOptions, lenient)
      .annotate(OpenApi.Summary, "Register a client (RFC 7591)")
      .annotate(
        OpenApi.Description,
        "Dynamic client registration, open to any client. Redirect URIs must be https, http on localhost or " +
          "127.0.0.1 (any port), or a private-use scheme (`com.example.app:/cb`); no fragments. " +
          "`token_endpoint_auth_method` is `none` (public client, PKCE required; the default), `client_secret_post` or " +
          "`client_secret_basic` (the response then carries `client_secret`, shown once). `scope` limits what the client " +
          "may ask for. Unknown metadata is ignored. A registered application has status `draft` and belongs to no team " +
          "until a user first authorizes it; it then belongs to that team. Errors: `invalid_redirect_uri`, " +
          "`invalid_client_metadata`."
      ),
    HttpApiEndpoint.get("consent", "/oauth/authorize", {
      query: {
        response_type: Text(64),
        client_id: Text(256),
        redirect_uri: Uri,
        scope: Text(2000),
        state: Schema.String.check(Schema.isBetweenLength(1, 1024)),
        code_challenge: Schema.optionalKey(Text(128)),
        code_challenge_method: Schema.optionalKey(Text(16)),
        resource: Schema.optionalKey(Text(2000))
      },
      success: OAuthApplicationResponse,
      error: OAuthBadRequest
    })
      .annotate(OpenApi.Summary, "Consent information")
      .annotate(
        OpenApi.Description,
        "Checks an authorization request (RFC 6749 4.1.1 with PKCE, RFC 7636) and returns what the consent screen " +
          "shows: the application's public fields, the requested scopes (space-separated, from the OAuth scheme's " +
          "list), the redirect URI and the state. An unknown client or a redirect URI not registered exactly is a 400 " +
          "and is never redirected to. Public clients must send `code_challenge` with `code_challenge_method=S256` " +
          "(`plain` is refused). `resource` (RFC 8707), when sent, must be this service's base URL (`invalid_target`)."
      ),
    HttpApiEndpoint.post("decide", "/oauth/authorize", {
      payload: AuthorizationDecisionRequest,
      success: RedirectResponse,
      error: [RedirectResponse.pipe(HttpApiSchema.status(400)), OAuthBadRequest, Unauthorized]
    })
      .middleware(SessionAuth)
      .annotate(HttpApi.PayloadParseOptions, lenient)
      .annotate(OpenApi.Summary, "Record the user's decision")
      .annotate(
        OpenApi.Description,
        "Needs the user's session JWT. `allow` issues a single-use authorization code valid for 5 minutes, bound to " +
          "the client, the redirect URI, the granted `scopes`, the PKCE `code_challenge` (S256) and `teamId` (a team " +
          "the user belongs to), and answers 200 `{redirect_url}` with `code`, `state` and `iss`. `deny` answers 200 " +
          "with `error=access_denied`. Other errors once the client and redirect URI are verified answer 400 " +
          "`{redirect_url}` carrying `error`, `error_description` and `state`; an unknown client or unregistered " +
          "redirect URI answers 400 OAuthErrorResponse instead. Besides the OAuth scheme's scopes the decision " +
          "accepts compliance.*, trade.*, payment_requests.*, apis.all and apis.read."
      ),
    HttpApiEndpoint.post("token", "/oauth/token", {
      payload: [TokenRequest, TokenRequest.pipe(HttpApiSchema.asFormUrlEncoded())],
      success: TokenResponse,
      error: [OAuthBadRequest, OAuthUnauthorized]
    })
      .annotate(HttpApi.PayloadParseOptions, lenient)
      .annotate(OpenApi.Summary, "Exchange a code or a refresh token (RFC 6749)")
      .annotate(
        OpenApi.Description,
        "JSON or application/x-www-form-urlencoded. `grant_type=authorization_code` with `code`, `redirect_uri`, " +
          "`code_verifier` (43..128 unreserved characters; required when the authorization had a code_challenge, " +
          "refused when it had none) and `client_id`. `grant_type=refresh_token` with `refresh_token` and optionally " +
          "`scope` (may narrow the granted scope, never widen it: `invalid_scope`). Confidential clients authenticate " +
          "with HTTP Basic (`client_secret_basic`) or `client_secret` in the body (`client_secret_post`); failures are " +
          "401 `invalid_client`. Access tokens (`mid_access_token_`) live 2 hours; refresh tokens " +
          "(`mid_refresh_token_`) live 30 days and rotate on every use. Reusing a code revokes every token issued " +
          "from it; reusing a rotated refresh token revokes its whole family. Errors are RFC 6749 5.2 bodies."
      ),
    HttpApiEndpoint.post("revoke", "/oauth/revoke", {
      payload: [RevokeRequest, RevokeRequest.pipe(HttpApiSchema.asFormUrlEncoded())],
      success: Schema.Struct({ success: Schema.Boolean }),
      error: [OAuthBadRequest, OAuthUnauthorized]
    })
      .annotate(HttpApi.PayloadParseOptions, lenient)
      .annotate(OpenApi.Summary, "Revoke a token (RFC 7009)")
      .annotate(
        OpenApi.Description,
        "JSON or application/x-www-form-urlencoded `{token, token_type_hint?, client_id, client_secret?}`. Revoking " +
          "an access token revokes it; revoking a refresh token revokes every token of its grant. Unknown tokens " +
          "answer 200 `{success: true}` as well. The client authenticates as at the token endpoint."
      )
  )
  .middleware(InputLimits)
  .middleware(OAuthGuard)
  .annotate(
    OpenApi.Description,
    "OAuth 2.0 authorization server: authorization code with PKCE (S256), rotating refresh tokens, dynamic client " +
      "registration and revocation. Every /oauth/* route is rate limited per client IP " +
      '(`RATE_LIMIT_OAUTH_PER_MINUTE`, default 60): 429 `{error: "rate_limited"}` with Retry-After.'
  ) {}

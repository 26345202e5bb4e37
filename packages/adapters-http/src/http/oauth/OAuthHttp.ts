import {
  type AuthorizationResponse,
  type ClientCredentials,
  OAuth,
  type OAuthApplication,
  oauthError,
  type TeamId
} from "@svc/domain"
import { Effect, Struct } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CONSENT_FIELDS, type TokenRequest } from "../../api/oauth/index.ts"
import { CurrentUser } from "../../api/shared/index.ts"
import { PublicBaseUrl } from "../middleware/index.ts"
import { renderOAuthFailures } from "./OAuthResponses.ts"

/** Adds parameters (and the RFC 9207 `iss`) to a client's redirect URI. */
const redirectTo = (response: AuthorizationResponse, issuer: string): string => {
  const url = new URL(response.redirectUri)
  for (const [name, value] of Object.entries(response.params)) url.searchParams.set(name, value)
  url.searchParams.set("iss", issuer)
  return url.toString()
}

/** Whether an RFC 8707 `resource` names this service. */
const identifiesThisServer = (resource: string, baseUrl: string): boolean =>
  resource === baseUrl || resource === `${baseUrl}/` || resource.startsWith(`${baseUrl}/`)

const invalidTarget = () => oauthError("invalid_target", "resource: not a resource served here")

const consentResponse = (app: OAuthApplication, scopes: ReadonlyArray<string>, redirectUri: string, state: string) => ({
  ...Struct.pick(app, CONSENT_FIELDS),
  scopes,
  redirectUri,
  state
})

interface PresentedClient {
  readonly credentials: ClientCredentials
  readonly basic: boolean
}

const decodeBasic = (value: string): { readonly id: string; readonly secret: string } | undefined => {
  try {
    const decoded = atob(value.trim())
    const colon = decoded.indexOf(":")
    if (colon < 0) return undefined
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replaceAll("+", " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replaceAll("+", " "))
    }
  } catch {
    return undefined
  }
}

/** The client credentials of a token or revocation request (RFC 6749 2.3.1): HTTP Basic or the body, never both. */
const presentedClient = (body: { readonly client_id?: string; readonly client_secret?: string }) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const authorization = request.headers.authorization
    if (authorization === undefined || !/^basic /iu.test(authorization)) {
      return { credentials: { clientId: body.client_id, clientSecret: body.client_secret }, basic: false }
    }
    const basic = decodeBasic(authorization.slice(6))
    if (basic === undefined) {
      return yield* oauthError("invalid_client", "the Basic authorization header is malformed")
    }
    if (body.client_secret !== undefined) {
      return yield* oauthError("invalid_request", "use one client authentication method, not Basic and client_secret")
    }
    if (body.client_id !== undefined && body.client_id !== basic.id) {
      return yield* oauthError("invalid_request", "client_id differs from the Basic authorization header")
    }
    return { credentials: { clientId: basic.id, clientSecret: basic.secret }, basic: true } satisfies PresentedClient
  })

const basicUsed = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  return /^basic /iu.test(request.headers.authorization ?? "")
})

export const OAuthHttp = HttpApiBuilder.group(Api, "oauth", (handlers) =>
  Effect.gen(function* () {
    const oauth = yield* OAuth
    const issuer = yield* PublicBaseUrl

    const tokenGrant = (payload: typeof TokenRequest.Type) =>
      Effect.gen(function* () {
        const client = yield* presentedClient(payload)
        if (payload.resource !== undefined && !identifiesThisServer(payload.resource, issuer)) {
          return yield* invalidTarget()
        }
        const tokens =
          payload.grant_type === "authorization_code"
            ? yield* oauth.exchangeCode(client.credentials, {
                code: payload.code,
                redirectUri: payload.redirect_uri,
                codeVerifier: payload.code_verifier
              })
            : payload.grant_type === "refresh_token"
              ? yield* oauth.refresh(client.credentials, { refreshToken: payload.refresh_token, scope: payload.scope })
              : yield* oauthError("unsupported_grant_type", "grant_type: expected authorization_code or refresh_token")
        return {
          access_token: tokens.accessToken,
          token_type: "Bearer" as const,
          expires_in: tokens.expiresIn,
          refresh_token: tokens.refreshToken,
          scope: tokens.scope
        }
      })

    return handlers
      .handle("register", ({ payload }) =>
        Effect.gen(function* () {
          const { application: app, clientSecret } = yield* oauth.register({
            clientName: payload.client_name,
            redirectUris: payload.redirect_uris,
            grantTypes: payload.grant_types,
            tokenEndpointAuthMethod: payload.token_endpoint_auth_method,
            scope: payload.scope,
            logoUri: payload.logo_uri,
            clientUri: payload.client_uri,
            responseTypes: payload.response_types
          })
          return {
            client_id: app.clientId,
            client_name: app.name,
            redirect_uris: app.redirectUris,
            grant_types: app.grantTypes,
            token_endpoint_auth_method: app.tokenEndpointAuthMethod,
            response_types: app.responseTypes,
            client_id_issued_at: Math.floor(Date.parse(app.createdAt) / 1000),
            ...(clientSecret === null ? {} : { client_secret: clientSecret, client_secret_expires_at: 0 }),
            ...(app.scopes === null ? {} : { scope: app.scopes.join(" ") }),
            ...(app.logoUrl === null ? {} : { logo_uri: app.logoUrl }),
            ...(app.website === null ? {} : { client_uri: app.website })
          }
        }).pipe(renderOAuthFailures())
      )
      .handle("consent", ({ query }) =>
        Effect.gen(function* () {
          const consent = yield* oauth.consent({
            responseType: query.response_type,
            clientId: query.client_id,
            redirectUri: query.redirect_uri,
            scope: query.scope,
            state: query.state,
            codeChallenge: query.code_challenge,
            codeChallengeMethod: query.code_challenge_method
          })
          if (query.resource !== undefined && !identifiesThisServer(query.resource, issuer)) {
            return yield* invalidTarget()
          }
          return consentResponse(consent.application, consent.scopes, consent.redirectUri, consent.state)
        }).pipe(renderOAuthFailures({ state: query.state }))
      )
      .handle("decide", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const decided = yield* Effect.result(
            oauth.decide(user.id, {
              clientId: payload.client_id,
              decision: payload.decision,
              scopes: payload.scopes,
              redirectUri: payload.redirect_uri,
              state: payload.state,
              codeChallenge: payload.code_challenge,
              teamId: payload.teamId as TeamId
            })
          )
          if (decided._tag === "Success") return { redirect_url: redirectTo(decided.success, issuer) }
          const failure = decided.failure
          if (failure._tag === "OAuthError" && failure.redirectable) {
            const params: Record<string, string> = { error: failure.error, error_description: failure.description }
            if (payload.state !== undefined) params.state = payload.state
            return HttpServerResponse.jsonUnsafe(
              { redirect_url: redirectTo({ redirectUri: payload.redirect_uri, params }, issuer) },
              { status: 400, headers: { "cache-control": "no-store" } }
            )
          }
          return yield* failure
        }).pipe(renderOAuthFailures(payload.state === undefined ? {} : { state: payload.state }))
      )
      .handle("token", ({ payload }) =>
        Effect.gen(function* () {
          const basic = yield* basicUsed
          return yield* tokenGrant(payload).pipe(renderOAuthFailures({ basic }))
        })
      )
      .handle("revoke", ({ payload }) =>
        Effect.gen(function* () {
          const basic = yield* basicUsed
          return yield* Effect.gen(function* () {
            const client = yield* presentedClient(payload)
            yield* oauth.revoke(client.credentials, payload.token)
            return { success: true }
          }).pipe(renderOAuthFailures({ basic }))
        })
      )
  })
)

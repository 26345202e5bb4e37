import { MailAppNotConfigured, type MailGrant, MailProvider, MailProviderFailed } from "@svc/domain"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"

/** The service's app at the mail provider (the API reads it from its `MAIL_*` variables). */
export interface MailAppSettings {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly userinfoUrl: string
  readonly revokeUrl: string
  readonly scopes: string
  /** Where the provider sends the person back: the service's `/apps/mail/oauth-callback`. */
  readonly redirectUri: string
}

/** RFC 6749 §5.1: a successful token response. */
const TokenResponse = Schema.Struct({
  access_token: Schema.String.check(Schema.isNonEmpty()),
  token_type: Schema.String,
  expires_in: Schema.optionalKey(Schema.Number.check(Schema.isGreaterThan(0))),
  refresh_token: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String),
  id_token: Schema.optionalKey(Schema.String)
})

/** RFC 6749 §5.2: an error response; only its `error` code is repeated (the description is the provider's prose). */
const TokenError = Schema.Struct({ error: Schema.String.check(Schema.isPattern(/^[\w.-]{1,64}$/u)) })

/** The OpenID Connect userinfo claims the service reads. */
const UserInfo = Schema.Struct({
  email: Schema.String.check(Schema.isBetweenLength(3, 320)),
  email_verified: Schema.optionalKey(Schema.Boolean)
})

const TIMEOUT = "10 seconds"

const failed = (reason: string) => new MailProviderFailed({ reason })

/**
 * The mail provider over HTTP (OAuth 2.0, RFC 6749 and RFC 7009, with an OpenID Connect userinfo endpoint): the code is
 * exchanged at the token endpoint (form-encoded, client credentials in the body), the address read from userinfo with
 * the new access token (an address the provider says is unverified is refused), and tokens revoked at the revocation
 * endpoint. Without settings every call fails `MailAppNotConfigured`. Failures name the endpoint and the provider's
 * error code, never a token.
 */
export const MailProviderHttp = {
  make: (settings: Option.Option<MailAppSettings>) =>
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const configured = Option.match(settings, {
        onNone: () => Effect.fail(new MailAppNotConfigured()),
        onSome: (s) => Effect.succeed(s)
      })

      /** Sends a request, answering its response or a failure naming `endpoint` (unreachable, timed out). */
      const send = (endpoint: string, request: HttpClientRequest.HttpClientRequest) =>
        http.execute(request).pipe(
          Effect.timeoutOrElse({ duration: TIMEOUT, orElse: () => Effect.fail(failed(`the ${endpoint} timed out`)) }),
          Effect.catchTag("HttpClientError", () => Effect.fail(failed(`the ${endpoint} could not be reached`)))
        )

      const body = <S extends Schema.Top & { readonly DecodingServices: never }>(
        endpoint: string,
        schema: S,
        response: HttpClientResponse.HttpClientResponse
      ) =>
        response.json.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(schema)),
          Effect.mapError(() => failed(`the ${endpoint} answered ${response.status} with an unexpected body`))
        )

      const tokens = (s: MailAppSettings, code: string) =>
        Effect.gen(function* () {
          const response = yield* send(
            "token endpoint",
            HttpClientRequest.post(s.tokenUrl).pipe(
              HttpClientRequest.acceptJson,
              HttpClientRequest.bodyUrlParams({
                grant_type: "authorization_code",
                code,
                redirect_uri: s.redirectUri,
                client_id: s.clientId,
                client_secret: Redacted.value(s.clientSecret)
              })
            )
          )
          if (response.status >= 200 && response.status < 300) {
            return yield* body("token endpoint", TokenResponse, response)
          }
          const refusal = yield* response.json.pipe(
            Effect.flatMap(Schema.decodeUnknownEffect(TokenError)),
            Effect.option
          )
          return yield* Option.match(refusal, {
            onNone: () => Effect.fail(failed(`the token endpoint answered ${response.status}`)),
            onSome: (e) => Effect.fail(failed(`the token endpoint refused the code: ${e.error}`))
          })
        })

      const address = (s: MailAppSettings, accessToken: string) =>
        Effect.gen(function* () {
          const response = yield* send(
            "userinfo endpoint",
            HttpClientRequest.get(s.userinfoUrl).pipe(
              HttpClientRequest.acceptJson,
              HttpClientRequest.bearerToken(accessToken)
            )
          )
          if (response.status !== 200) return yield* failed(`the userinfo endpoint answered ${response.status}`)
          const info = yield* body("userinfo endpoint", UserInfo, response)
          if (info.email_verified === false) return yield* failed("the provider has not verified the address")
          return info.email
        })

      return MailProvider.of({
        authorizeUrl: (state) =>
          Effect.map(configured, (s) => {
            const url = new URL(s.authorizeUrl)
            url.searchParams.set("response_type", "code")
            url.searchParams.set("client_id", s.clientId)
            url.searchParams.set("redirect_uri", s.redirectUri)
            url.searchParams.set("scope", s.scopes)
            url.searchParams.set("access_type", "offline")
            url.searchParams.set("prompt", "consent")
            url.searchParams.set("state", state)
            return url.toString()
          }),
        exchangeCode: (code) =>
          Effect.gen(function* () {
            const s = yield* configured
            const granted = yield* tokens(s, code)
            const grant: MailGrant = {
              accessToken: Redacted.make(granted.access_token),
              refreshToken: granted.refresh_token === undefined ? null : Redacted.make(granted.refresh_token),
              expiresInSeconds: granted.expires_in ?? null,
              email: yield* address(s, granted.access_token)
            }
            return grant
          }),
        revoke: (token) =>
          Effect.gen(function* () {
            const s = yield* configured
            const response = yield* send(
              "revocation endpoint",
              HttpClientRequest.post(s.revokeUrl).pipe(
                HttpClientRequest.bodyUrlParams({
                  token: Redacted.value(token),
                  client_id: s.clientId,
                  client_secret: Redacted.value(s.clientSecret)
                })
              )
            )
            // RFC 7009 §2.2: 200 also for a token already invalid.
            if (response.status !== 200) return yield* failed(`the revocation endpoint answered ${response.status}`)
          })
      })
    }),
  /** The provider for these settings (none: not configured), over the `HttpClient` in context. */
  layer: (settings: Option.Option<MailAppSettings>) => Layer.effect(MailProvider, MailProviderHttp.make(settings))
}

import { ChatPlatform, ChatPlatformRefused, ChatPlatformUnavailable } from "@svc/domain"
import { Duration, Effect, Layer, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"

/** Where the chat platform is and the app's credentials there. */
export interface ChatPlatformSettings {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** The OAuth token endpoint (`oauth.v2.access`). */
  readonly tokenUrl: string
  /** The Web API base, without a trailing slash (`https://slack.com/api`). */
  readonly apiUrl: string
  readonly timeout?: Duration.Input
}

const Refusal = Schema.Struct({ ok: Schema.Literal(false), error: Schema.String })

const TokenAnswer = Schema.Union([
  Schema.Struct({
    ok: Schema.Literal(true),
    access_token: Schema.String,
    scope: Schema.String,
    bot_user_id: Schema.String,
    team: Schema.Struct({ id: Schema.String, name: Schema.String }),
    incoming_webhook: Schema.optional(Schema.Struct({ channel: Schema.String, channel_id: Schema.String }))
  }),
  Refusal
])

const RevokeAnswer = Schema.Union([Schema.Struct({ ok: Schema.Literal(true) }), Refusal])

const DEFAULT_TIMEOUT = Duration.seconds(10)

/**
 * ChatPlatform over the platform's Web API (Slack-compatible shapes): the code is exchanged at the OAuth token
 * endpoint with the app's client id and secret, form-encoded; a token is revoked with `auth.revoke`, bearer-
 * authenticated. The platform answers HTTP 200 with `ok: false` and its error code when it refuses; any other
 * answer is `ChatPlatformUnavailable`, whose message never holds a token, secret or answer body.
 */
export const layer = (settings: ChatPlatformSettings) =>
  Layer.effect(
    ChatPlatform,
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const timeout = settings.timeout ?? DEFAULT_TIMEOUT
      const call = <S extends Schema.Top>(operation: string, request: HttpClientRequest.HttpClientRequest, answer: S) =>
        client.execute(request).pipe(
          Effect.flatMap(HttpClientResponse.filterStatusOk),
          Effect.flatMap(HttpClientResponse.schemaBodyJson(answer)),
          Effect.timeout(timeout),
          Effect.catch((error) => Effect.fail(new ChatPlatformUnavailable({ operation, message: describe(error) })))
        )
      return ChatPlatform.of({
        exchangeCode: ({ code, redirectUri }) =>
          call(
            "exchangeCode",
            HttpClientRequest.post(settings.tokenUrl).pipe(
              HttpClientRequest.acceptJson,
              HttpClientRequest.bodyUrlParams({
                client_id: settings.clientId,
                client_secret: Redacted.value(settings.clientSecret),
                code,
                redirect_uri: redirectUri
              })
            ),
            TokenAnswer
          ).pipe(
            Effect.flatMap((answer) => {
              if (!answer.ok)
                return Effect.fail(new ChatPlatformRefused({ operation: "exchangeCode", error: answer.error }))
              if (answer.incoming_webhook === undefined) {
                return Effect.fail(new ChatPlatformRefused({ operation: "exchangeCode", error: "no_channel_chosen" }))
              }
              return Effect.succeed({
                accessToken: Redacted.make(answer.access_token),
                botUserId: answer.bot_user_id,
                workspaceId: answer.team.id,
                workspaceName: answer.team.name,
                channelId: answer.incoming_webhook.channel_id,
                channelName: answer.incoming_webhook.channel.replace(/^#/u, ""),
                scopes: answer.scope.split(",").filter((scope) => scope.length > 0)
              })
            })
          ),
        revokeToken: (token) =>
          call(
            "revokeToken",
            HttpClientRequest.post(`${settings.apiUrl}/auth.revoke`).pipe(
              HttpClientRequest.acceptJson,
              HttpClientRequest.bearerToken(token)
            ),
            RevokeAnswer
          ).pipe(
            Effect.flatMap((answer) =>
              answer.ok
                ? Effect.void
                : Effect.fail(new ChatPlatformRefused({ operation: "revokeToken", error: answer.error }))
            )
          )
      })
    })
  )

const describe = (error: { readonly _tag: string }): string => {
  switch (error._tag) {
    case "TimeoutError":
      return "the chat platform did not answer in time"
    case "SchemaError":
      return "the chat platform's answer is not understood"
    default:
      return "the chat platform could not be reached or answered with an error status"
  }
}

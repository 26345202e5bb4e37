import { destinationPost } from "@svc/adapters-webhooks"
import { ChatMessaging, ChatMessagingFailed } from "@svc/domain"
import { Duration, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

/** Where the chat platform's Web API is. */
export interface ChatMessagingSettings {
  /** The Web API base, without a trailing slash (`https://slack.com/api`). */
  readonly apiUrl: string
  readonly timeout?: Duration.Input
}

const Refusal = Schema.Struct({ ok: Schema.Literal(false), error: Schema.String })
const answerOf = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Union([Schema.Struct({ ok: Schema.Literal(true), ...fields }), Refusal])

const PostAnswer = answerOf({ channel: Schema.String, ts: Schema.String })
const UpdateAnswer = answerOf({})
const HistoryAnswer = answerOf({
  messages: Schema.Array(
    Schema.Struct({
      ts: Schema.String,
      metadata: Schema.optional(
        Schema.Struct({
          event_type: Schema.String,
          event_payload: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
        })
      )
    })
  )
})
const UserAnswer = answerOf({
  user: Schema.Struct({
    id: Schema.String,
    is_bot: Schema.optional(Schema.Boolean),
    is_email_confirmed: Schema.optional(Schema.Boolean),
    profile: Schema.Struct({ email: Schema.optional(Schema.String) })
  })
})

const REVOKED = new Set(["invalid_auth", "token_revoked", "account_inactive", "not_authed", "token_expired"])
const CHANNEL_GONE = new Set(["channel_not_found", "is_archived", "not_in_channel"])

/** The platform's `ok: false` answer as a failure. */
const refused = (code: string) =>
  new ChatMessagingFailed({
    reason: REVOKED.has(code)
      ? "revoked"
      : CHANNEL_GONE.has(code)
        ? "channel_not_found"
        : code === "ratelimited"
          ? "rate_limited"
          : "refused",
    code,
    retryAfterMs: null
  })

const unavailable = (code: string) => new ChatMessagingFailed({ reason: "unavailable", code, retryAfterMs: null })

/** An HTTP status other than 200 as a failure: 429 with its `Retry-After` (seconds), 5xx unavailable, others refused. */
const byStatus = (response: { readonly status: number; readonly retryAfter: string | undefined }) => {
  if (response.status === 429) {
    const seconds = Number(response.retryAfter ?? "")
    return new ChatMessagingFailed({
      reason: "rate_limited",
      code: "ratelimited",
      retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null
    })
  }
  return response.status >= 500
    ? unavailable(`http_${response.status}`)
    : new ChatMessagingFailed({ reason: "refused", code: `http_${response.status}`, retryAfterMs: null })
}

const DEFAULT_TIMEOUT = Duration.seconds(10)

/**
 * ChatMessaging over the platform's Web API (Slack-compatible shapes), bearer-authenticated with the bot's token:
 * `chat.postMessage` (with message metadata), `chat.update`, `conversations.history` (with all metadata, to find a
 * tagged message again), `users.info`, and the interaction's `response_url` for ephemeral answers. The response URL
 * comes inside the interaction, so it is posted to under the outbound rule of webhook deliveries (`destinationPost`):
 * a loopback, private or other non-public destination is refused (`destination_not_allowed`) and never contacted. HTTP
 * 429 is a rate limit with its `Retry-After`; a failure never carries a token or a body, only the platform's error
 * code.
 */
export const layer = (settings: ChatMessagingSettings) =>
  Layer.effect(
    ChatMessaging,
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const postTo = yield* destinationPost
      const timeout = settings.timeout ?? DEFAULT_TIMEOUT
      const base = settings.apiUrl.replace(/\/+$/u, "")

      const call = <S extends Schema.Top & { readonly DecodingServices: never }>(
        request: HttpClientRequest.HttpClientRequest,
        answer: S
      ): Effect.Effect<S["Type"], ChatMessagingFailed> =>
        client.execute(request).pipe(
          Effect.catchTag("HttpClientError", () => Effect.fail(unavailable("unreachable"))),
          Effect.flatMap((response) =>
            response.status === 200
              ? response.json.pipe(
                  Effect.flatMap(Schema.decodeUnknownEffect(answer)),
                  Effect.mapError(() => unavailable("unreadable_answer"))
                )
              : Effect.fail(byStatus({ status: response.status, retryAfter: response.headers["retry-after"] }))
          ),
          Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.fail(unavailable("timeout")) })
        )

      const api = <S extends Schema.Top & { readonly DecodingServices: never }>(
        token: Redacted.Redacted<string>,
        request: HttpClientRequest.HttpClientRequest,
        answer: S
      ) => call(request.pipe(HttpClientRequest.acceptJson, HttpClientRequest.bearerToken(token)), answer)

      const okOrFail = <A extends { readonly ok: boolean }>(a: A | { readonly ok: false; readonly error: string }) =>
        a.ok
          ? Effect.succeed(a as Extract<A, { readonly ok: true }>)
          : Effect.fail(refused((a as { error: string }).error))

      return ChatMessaging.of({
        post: (token, channel, content, tag) =>
          api(
            token,
            HttpClientRequest.post(`${base}/chat.postMessage`).pipe(
              HttpClientRequest.bodyJsonUnsafe({
                channel,
                text: content.text,
                blocks: content.blocks,
                metadata: { event_type: tag.eventType, event_payload: { [tag.key]: tag.value } }
              })
            ),
            PostAnswer
          ).pipe(
            Effect.flatMap(okOrFail),
            Effect.map((a) => ({ channel: a.channel, ts: a.ts }))
          ),
        update: (token, message, content) =>
          api(
            token,
            HttpClientRequest.post(`${base}/chat.update`).pipe(
              HttpClientRequest.bodyJsonUnsafe({
                channel: message.channel,
                ts: message.ts,
                text: content.text,
                blocks: content.blocks
              })
            ),
            UpdateAnswer
          ).pipe(Effect.flatMap(okOrFail), Effect.asVoid),
        findTagged: (token, channel, tag) =>
          api(
            token,
            HttpClientRequest.get(`${base}/conversations.history`).pipe(
              HttpClientRequest.setUrlParams({ channel, include_all_metadata: "true", limit: "200" })
            ),
            HistoryAnswer
          ).pipe(
            Effect.flatMap(okOrFail),
            Effect.map((a) =>
              Option.fromNullishOr(
                a.messages.find(
                  (m) => m.metadata?.event_type === tag.eventType && m.metadata.event_payload?.[tag.key] === tag.value
                )
              ).pipe(Option.map((m) => ({ channel, ts: m.ts })))
            )
          ),
        userEmail: (token, userId) =>
          api(
            token,
            HttpClientRequest.get(`${base}/users.info`).pipe(HttpClientRequest.setUrlParams({ user: userId })),
            UserAnswer
          ).pipe(
            Effect.flatMap(okOrFail),
            Effect.map(({ user }) =>
              user.is_bot === true || user.is_email_confirmed === false || user.profile.email === undefined
                ? Option.none()
                : Option.some(user.profile.email)
            )
          ),
        respond: (responseUrl, text) =>
          postTo({
            url: responseUrl,
            headers: {},
            body: JSON.stringify({ response_type: "ephemeral", text, replace_original: false }),
            timeoutMs: Duration.toMillis(Duration.fromInputUnsafe(timeout))
          }).pipe(
            Effect.mapError((e) =>
              e.reason === "refused"
                ? new ChatMessagingFailed({ reason: "refused", code: "destination_not_allowed", retryAfterMs: null })
                : unavailable(e.reason === "timeout" ? "timeout" : "unreachable")
            ),
            Effect.flatMap((response) =>
              response.status < 300
                ? Effect.void
                : Effect.fail(byStatus({ status: response.status, retryAfter: response.headers["retry-after"] }))
            )
          )
      })
    })
  )

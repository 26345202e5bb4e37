import { assert, describe, it } from "@effect/vitest"
import { ChatPlatformHttp } from "@svc/adapters-integrations"
import { ChatPlatform, ChatPlatformRefused, ChatPlatformUnavailable } from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { type ChatPlatformStandIn, chatPlatformFake, DEFAULT_WORKSPACE } from "./ChatPlatformFake.ts"

const REDIRECT = "https://svc.test/apps/chat/oauth-callback"
const SCOPE = "chat:write,commands,incoming-webhook"

/** Runs `body` with the HTTP adapter pointed at a fresh platform stand-in. */
const withPlatform = <A, E>(body: (platform: ChatPlatformStandIn) => Effect.Effect<A, E, ChatPlatform>) =>
  Effect.gen(function* () {
    const platform = yield* chatPlatformFake
    const adapter = ChatPlatformHttp.layer({
      clientId: platform.clientId,
      clientSecret: Redacted.make(platform.clientSecret),
      tokenUrl: platform.tokenUrl,
      apiUrl: platform.apiUrl
    }).pipe(Layer.provide(FetchHttpClient.layer))
    return yield* body(platform).pipe(Effect.provide(adapter))
  }).pipe(Effect.scoped)

describe("ChatPlatformHttp against a platform stand-in", () => {
  it.live("exchanges a code, form-encoded with the app's credentials, for the installation", () =>
    withPlatform((platform) =>
      Effect.gen(function* () {
        const code = platform.consent(REDIRECT, SCOPE)
        const installation = yield* ChatPlatform.use((p) => p.exchangeCode({ code, redirectUri: REDIRECT }))
        assert.deepStrictEqual(
          { ...installation, accessToken: undefined },
          {
            accessToken: undefined,
            botUserId: "U0BOT0001",
            workspaceId: DEFAULT_WORKSPACE.id,
            workspaceName: DEFAULT_WORKSPACE.name,
            channelId: DEFAULT_WORKSPACE.channelId,
            channelName: DEFAULT_WORKSPACE.channelName,
            scopes: ["chat:write", "commands", "incoming-webhook"]
          }
        )
        assert.deepStrictEqual(platform.issuedTokens(), [Redacted.value(installation.accessToken)])
        const [request] = platform.requests()
        assert.strictEqual(request?.method, "oauth.v2.access")
        assert.strictEqual(request?.headers["content-type"], "application/x-www-form-urlencoded")
        assert.deepStrictEqual(request?.body, {
          client_id: platform.clientId,
          client_secret: platform.clientSecret,
          code,
          redirect_uri: REDIRECT
        })
      })
    )
  )

  it.live("a code used twice, or for another redirect URI, is refused with the platform's error", () =>
    withPlatform((platform) =>
      Effect.gen(function* () {
        const exchange = (code: string, redirectUri: string) =>
          Effect.flip(ChatPlatform.use((p) => p.exchangeCode({ code, redirectUri })))
        const code = platform.consent(REDIRECT, SCOPE)
        yield* ChatPlatform.use((p) => p.exchangeCode({ code, redirectUri: REDIRECT }))
        assert.deepStrictEqual(
          yield* exchange(code, REDIRECT),
          new ChatPlatformRefused({ operation: "exchangeCode", error: "invalid_code" })
        )
        assert.deepStrictEqual(
          yield* exchange(platform.consent(REDIRECT, SCOPE), "https://evil.test/cb"),
          new ChatPlatformRefused({ operation: "exchangeCode", error: "bad_redirect_uri" })
        )
        platform.failNextExchange("refuse")
        assert.deepStrictEqual(
          yield* exchange(platform.consent(REDIRECT, SCOPE), REDIRECT),
          new ChatPlatformRefused({ operation: "exchangeCode", error: "access_denied" })
        )
      })
    )
  )

  it.live("an error status is unavailable, and the error holds neither secret nor code", () =>
    withPlatform((platform) =>
      Effect.gen(function* () {
        platform.failNextExchange("status500")
        const code = platform.consent(REDIRECT, SCOPE)
        const error = yield* Effect.flip(ChatPlatform.use((p) => p.exchangeCode({ code, redirectUri: REDIRECT })))
        assert.instanceOf(error, ChatPlatformUnavailable)
        const text = JSON.stringify(error) + String(error)
        assert.notInclude(text, platform.clientSecret)
        assert.notInclude(text, code)
      })
    )
  )

  it.live("revokes a token with bearer authentication; a revoked token is refused as invalid_auth", () =>
    withPlatform((platform) =>
      Effect.gen(function* () {
        const code = platform.consent(REDIRECT, SCOPE)
        const { accessToken } = yield* ChatPlatform.use((p) => p.exchangeCode({ code, redirectUri: REDIRECT }))
        yield* ChatPlatform.use((p) => p.revokeToken(accessToken))
        assert.isTrue(platform.isRevoked(Redacted.value(accessToken)))
        const revoke = platform.requests().at(-1)
        assert.strictEqual(revoke?.method, "auth.revoke")
        assert.strictEqual(revoke?.headers.authorization, `Bearer ${Redacted.value(accessToken)}`)
        assert.deepStrictEqual(
          yield* Effect.flip(ChatPlatform.use((p) => p.revokeToken(accessToken))),
          new ChatPlatformRefused({ operation: "revokeToken", error: "invalid_auth" })
        )
      })
    )
  )

  it.live("an unreachable platform is unavailable", () =>
    Effect.gen(function* () {
      const adapter = ChatPlatformHttp.layer({
        clientId: "id",
        clientSecret: Redacted.make("secret"),
        tokenUrl: "http://127.0.0.1:1/api/oauth.v2.access",
        apiUrl: "http://127.0.0.1:1/api"
      }).pipe(Layer.provide(FetchHttpClient.layer))
      const error = yield* Effect.flip(
        ChatPlatform.use((p) => p.revokeToken(Redacted.make("xoxb-1"))).pipe(Effect.provide(adapter))
      )
      assert.instanceOf(error, ChatPlatformUnavailable)
    })
  )
})

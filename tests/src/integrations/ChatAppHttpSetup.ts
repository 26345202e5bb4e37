import { assert } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { ChatIntegrationsRepo, type TeamId } from "@svc/domain"
import { type Context, Effect } from "effect"
import { type Client, withAppOnPorts } from "../support/HttpScenarios.ts"
import { type Answer, testConfig } from "../support/InProcessApp.ts"
import {
  type ChatPlatformStandIn,
  chatPlatformFake,
  DEFAULT_WORKSPACE,
  type PlatformWorkspace
} from "./ChatPlatformFake.ts"
import { type Browser, browserOf } from "./IntegrationsSetup.ts"

/** The integration secrets key the chat app's states are signed and its tokens sealed under. */
export const SECRETS_KEY = "test-integration-secrets-key-0123456789abcdef"
/** The dashboard the callback sends the browser back to. */
export const DASHBOARD = "https://dashboard.svc.test"
/** The chat app's OAuth callback, as registered at the platform. */
export const CALLBACK = `${testConfig.publicBaseUrl}/apps/chat/oauth-callback`

const chatEnv = (platform: ChatPlatformStandIn) => ({
  CHAT_CLIENT_ID: platform.clientId,
  CHAT_CLIENT_SECRET: platform.clientSecret,
  CHAT_OAUTH_AUTHORIZE_URL: platform.authorizeUrl,
  CHAT_OAUTH_TOKEN_URL: platform.tokenUrl,
  CHAT_API_URL: platform.apiUrl,
  INTEGRATION_SECRETS_KEY: SECRETS_KEY,
  DASHBOARD_URL: DASHBOARD
})

/** Runs an effect over the app's ports. */
export type Run = <A, E>(effect: Effect.Effect<A, E, Ports>) => Promise<A>

/** Runs `f` against the app with the chat app configured against a fresh platform stand-in. */
export const withChatApp = (f: (app: Client, platform: ChatPlatformStandIn, run: Run) => Promise<void>) =>
  Effect.gen(function* () {
    const platform = yield* chatPlatformFake
    yield* withAppOnPorts(
      (app, ports: Context.Context<Ports>) =>
        f(app, platform, (effect) => Effect.runPromise(Effect.provide(effect, ports))),
      testConfig,
      chatEnv(platform)
    )
  }).pipe(Effect.scoped)

/** The state inside an install URL, after checking the URL is the platform's authorize page for this app. */
const stateOf = (platform: ChatPlatformStandIn, url: string) => {
  const parsed = new URL(url)
  assert.strictEqual(`${parsed.origin}${parsed.pathname}`, platform.authorizeUrl)
  assert.strictEqual(parsed.searchParams.get("client_id"), platform.clientId)
  assert.strictEqual(parsed.searchParams.get("redirect_uri"), CALLBACK)
  assert.include(parsed.searchParams.get("scope") ?? "", "chat:write")
  return parsed.searchParams.get("state") ?? ""
}

/** The platform sending a browser (or a bare client) back to the callback with `code` and `state`. */
export const callback = (from: Client | Browser, code: string, state: string) =>
  from.call("GET", `/apps/chat/oauth-callback?${new URLSearchParams({ code, state })}`)

/** `browser` asks for the install URL as the person of `token`; answers the URL's state and scopes. */
const installUrl = async (browser: Browser, platform: ChatPlatformStandIn, token: string) => {
  const started = await browser.call("GET", "/apps/chat/install-url", { token })
  assert.strictEqual(started.status, 200, JSON.stringify(started.body))
  return { state: stateOf(platform, started.body.url), scope: new URL(started.body.url).searchParams.get("scope") }
}

/** `browser` asks for the install URL as the person of `token`; answers the URL's state. */
export const startInstall = async (browser: Browser, platform: ChatPlatformStandIn, token: string) =>
  (await installUrl(browser, platform, token)).state

/** A code of the platform for the app's callback, as a user approving the install in `workspace` gets it. */
export const consent = (platform: ChatPlatformStandIn, workspace: PlatformWorkspace = DEFAULT_WORKSPACE) =>
  platform.consent(CALLBACK, "chat:write,incoming-webhook", workspace)

/** Installs the chat app for the team of `token` the way a browser does; answers the callback's answer. */
export const install = async (
  app: Client,
  platform: ChatPlatformStandIn,
  token: string,
  workspace = DEFAULT_WORKSPACE
) => {
  const browser = browserOf(app)
  const { state, scope } = await installUrl(browser, platform, token)
  return callback(browser, platform.consent(CALLBACK, scope ?? "", workspace), state)
}

/** The team's chat integration as stored. */
export const stored = (run: Run, teamId: TeamId) => run(ChatIntegrationsRepo.use((repo) => repo.forTeam(teamId)))

/** A 400 `invalid_state` whose one detail names `state` with `message`. */
export const assertInvalidState = (answer: Answer, message: string) => {
  assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, "invalid_state")
  assert.deepStrictEqual(answer.body.details, [{ path: "state", message }])
}

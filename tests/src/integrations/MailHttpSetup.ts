import { assert } from "@effect/vitest"
import { MailStateJwe } from "@svc/adapters-integrations"
import type { Ports } from "@svc/api"
import { hashSecret, type TeamId, type UserId } from "@svc/domain"
import { type Context, Effect, Redacted } from "effect"
import { type Client, withAppOnPorts } from "../support/HttpScenarios.ts"
import { sessionToken, testConfig } from "../support/InProcessApp.ts"
import { type Browser, browserOf } from "./IntegrationsSetup.ts"
import { mailProviderServer } from "./MailProviderServer.ts"

/** The integration secrets key mail states are encrypted and tokens sealed under. */
export const SECRETS_KEY = "integration-secrets-key-for-tests-0123456789abcdef"
/** The mail app's OAuth callback. */
export const CALLBACK_URL = `${testConfig.publicBaseUrl}/apps/mail/oauth-callback`
/** The dashboard's inbox page, where the callback sends the person back. */
export const INBOX_PAGE = `${testConfig.publicBaseUrl}/dashboard/inbox`

/** The local mail provider. */
export type Provider = Effect.Success<ReturnType<typeof mailProviderServer>>

/** Runs an effect over the app's ports. */
export const run = <A, E>(context: Context.Context<Ports>, effect: Effect.Effect<A, E, Ports>) =>
  Effect.runPromise(Effect.provide(effect, context))

/** Runs `f` on the app configured for a local provider (`configured: false`: without the mail app). */
export const withMail = (
  f: (app: Client, context: Context.Context<Ports>, provider: Provider) => Promise<void>,
  options: { readonly configured?: boolean } = {}
) =>
  Effect.gen(function* () {
    const provider = yield* mailProviderServer(CALLBACK_URL)
    const env = {
      ...(options.configured === false ? {} : provider.env),
      INTEGRATION_SECRETS_KEY: SECRETS_KEY,
      BACKGROUND_JOBS: "off"
    }
    yield* withAppOnPorts((app, context) => f(app, context, provider), testConfig, env)
  })

/** A team made through the API by a new user: its id, the owner's id and session. */
export const newTeam = async (app: Client) => {
  const userId = crypto.randomUUID() as UserId
  const token = await sessionToken({ id: userId, email: `owner-${userId}@example.com` })
  const created = await app.call("POST", "/teams", { token, body: { name: "Team" } })
  assert.strictEqual(created.status, 201)
  return { teamId: created.body.id as TeamId, userId, token }
}

/** The `state` of the install URL `browser` gets for the person of `token`. */
export const installState = async (browser: Browser, token: string) => {
  const answer = await browser.call("GET", "/apps/mail/install-url", { token })
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  return new URL(answer.body.url).searchParams.get("state") ?? ""
}

/** The provider sending a browser (or a bare client) back to the callback with `params`. */
export const callback = (from: Client | Browser, params: Record<string, string>) =>
  from.call("GET", `/apps/mail/oauth-callback?${new URLSearchParams(params)}`)

/** Connects `email` for the caller's team through the whole flow in a browser; answers the callback's answer. */
export const connect = async (app: Client, provider: Provider, token: string, email: string) => {
  const browser = browserOf(app)
  return callback(browser, { code: provider.issue(email), state: await installState(browser, token) })
}

/** A 400 `invalid_state` naming `state`. */
export const assertInvalidState = (answer: {
  status: number
  body: { error: string; details: Array<{ path: string }> }
}) => {
  assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, "invalid_state")
  assert.deepStrictEqual(
    answer.body.details.map((d) => d.path),
    ["state"]
  )
}

/** The team's inbox accounts as listed to the person of `token`. */
export const listAccounts = async (app: Client, token: string) => {
  const list = await app.call("GET", "/inbox/accounts", { token })
  assert.strictEqual(list.status, 200, JSON.stringify(list.body))
  return list.body.data as Array<Record<string, unknown>>
}

/**
 * A mail state made outside the service (under `key`, the service's unless given) for `teamId` and `userId`, good until
 * `expiresAtMillis`, and a browser holding its secret, as if that browser had asked for it.
 */
export const craftedState = async (
  app: Client,
  teamId: TeamId,
  userId: UserId,
  expiresAtMillis: number,
  key = SECRETS_KEY
) => {
  const secret = crypto.randomUUID()
  const state = await Effect.runPromise(
    Effect.gen(function* () {
      const codec = yield* MailStateJwe.make(Redacted.make(key))
      const browserHash = yield* hashSecret(secret)
      return yield* codec.encrypt({ teamId, userId, nonce: crypto.randomUUID(), browserHash }, expiresAtMillis)
    })
  )
  const browser = browserOf(app)
  browser.plant("svc_mail_install", secret, "/apps/mail/oauth-callback")
  return { state, browser }
}

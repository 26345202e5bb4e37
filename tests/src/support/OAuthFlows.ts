import { afterAll, assert, beforeAll } from "vitest"
import { inProcess, pkce, type Reply, sessionFor } from "./OAuthHarness.ts"

/** The redirect URI the test clients register. */
export const REDIRECT = "http://127.0.0.1:7777/callback"

/** Asserts an RFC 6749 error body with the given status and code, and that it leaks nothing internal. */
export const assertOAuthError = (reply: Reply, status: number, error: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error, error, JSON.stringify(reply.body))
  assert.isString(reply.body.error_description)
  assert.isUndefined(reply.body.code, "OAuth endpoints answer RFC 6749 bodies, not the generic one")
  assert.notMatch(JSON.stringify(reply.body), /stack|SELECT|INSERT|\.ts:\d+/u)
}

/** An in-process app for the test file (started before all its tests, disposed after) and the OAuth flow steps over it. */
export const oauthFlows = () => {
  let running: ReturnType<typeof inProcess>
  beforeAll(() => {
    running = inProcess()
  })
  afterAll(() => running.dispose())
  const app = { call: (...args: Parameters<typeof running.call>) => running.call(...args) }

  const signedInWithTeam = async () => {
    const userId = crypto.randomUUID()
    const token = await sessionFor(userId)
    const team = await app.call("POST", "/teams", { token, json: { name: "Acme" } })
    assert.strictEqual(team.status, 201)
    return { token, userId, teamId: team.body.id as string }
  }

  const register = async (overrides: Record<string, unknown> = {}) => {
    const reply = await app.call("POST", "/oauth/register", {
      json: { client_name: "Agent CLI", redirect_uris: [REDIRECT], ...overrides }
    })
    assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
    return reply.body as { client_id: string; client_secret?: string }
  }

  const decide = (token: string, body: Record<string, unknown>) =>
    app.call("POST", "/oauth/authorize", { token, json: body })

  const authorize = async (
    clientId: string,
    user: { token: string; teamId: string },
    options: { scopes?: ReadonlyArray<string>; challenge?: string | null } = {}
  ) => {
    const challenge = options.challenge === undefined ? (await pkce()).challenge : options.challenge
    const reply = await decide(user.token, {
      client_id: clientId,
      decision: "allow",
      scopes: options.scopes ?? ["users.read", "teams.read"],
      redirect_uri: REDIRECT,
      state: "st-1",
      teamId: user.teamId,
      ...(challenge === null ? {} : { code_challenge: challenge })
    })
    assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
    return new URL(reply.body.redirect_url).searchParams.get("code")!
  }

  /** A public client with a live grant for a new user and team. */
  const granted = async (scopes: ReadonlyArray<string> = ["users.read", "teams.read"]) => {
    const user = await signedInWithTeam()
    const client = await register()
    const { verifier, challenge } = await pkce()
    const code = await authorize(client.client_id, user, { scopes, challenge })
    const reply = await app.call("POST", "/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: client.client_id
      }
    })
    assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
    return {
      user,
      client,
      code,
      verifier,
      tokens: reply.body as { access_token: string; refresh_token: string; scope: string }
    }
  }

  return { app, signedInWithTeam, register, decide, authorize, granted }
}

import { assert } from "@effect/vitest"
import {
  ApiKeys,
  type ApiKeysRepo,
  type CategoriesRepo,
  type LedgerRepo,
  OAuth,
  OAuthApplications,
  type OAuthError,
  type OAuthRepo,
  type PersistenceUnavailable,
  type ReceiveHandlesRepo,
  s256Challenge,
  TeamCredentials,
  TeamCredentialsLive,
  type TeamId,
  type TeamsRepo,
  type Transactor,
  type UserId,
  type UsersRepo
} from "@svc/domain"
import { Effect, Layer } from "effect"
import { domainOver, newTeam } from "../ledger/LedgerSetup.ts"

/** The ports the OAuth contracts run over. */
export type OAuthPorts =
  | Transactor
  | UsersRepo
  | TeamsRepo
  | ReceiveHandlesRepo
  | CategoriesRepo
  | LedgerRepo
  | OAuthRepo
  | ApiKeysRepo

/** The redirect URI every test client registers. */
export const REDIRECT = "http://127.0.0.1:8976/callback"
/** The PKCE code verifier of every grant unless a test says otherwise. */
export const VERIFIER = "verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG"

/** The OAuth, OAuth application and API key services over whichever ports the caller provides. */
export const servicesOver = <E, R>(ports: Layer.Layer<R, E>) =>
  TeamCredentialsLive.pipe(
    Layer.provideMerge(Layer.mergeAll(OAuth.layer, OAuthApplications.layer, ApiKeys.layer)),
    Layer.provideMerge(domainOver(ports))
  )

/** Registers a public client (no secret) redirecting to `REDIRECT`, optionally limited to `scope`. */
export const registerPublic = (scope?: string) =>
  Effect.gen(function* () {
    const oauth = yield* OAuth
    return yield* oauth.register({
      clientName: "Agent CLI",
      redirectUris: [REDIRECT],
      ...(scope === undefined ? {} : { scope })
    })
  })

/** The code a team member's consent gives (PKCE with `VERIFIER` unless `verifier` says otherwise or is null). */
export const authorize = (
  clientId: string,
  userId: UserId,
  teamId: TeamId,
  options: { readonly scopes?: ReadonlyArray<string>; readonly verifier?: string | null } = {}
) =>
  Effect.gen(function* () {
    const oauth = yield* OAuth
    const verifier = options.verifier === undefined ? VERIFIER : options.verifier
    const response = yield* oauth.decide(userId, {
      clientId,
      decision: "allow",
      scopes: options.scopes ?? ["users.read", "teams.read"],
      redirectUri: REDIRECT,
      state: "s-1",
      teamId,
      ...(verifier === null ? {} : { codeChallenge: yield* s256Challenge(verifier) })
    })
    assert.strictEqual(response.params.state, "s-1")
    return response.params.code!
  })

/** Tokens of a new team's public client, from a code the owner authorized with PKCE. */
export const publicGrant = Effect.gen(function* () {
  const oauth = yield* OAuth
  const { team, owner } = yield* newTeam
  const { application } = yield* registerPublic()
  const client = { clientId: application.clientId, clientSecret: undefined }
  const code = yield* authorize(application.clientId, owner.id, team.id)
  const tokens = yield* oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })
  return { oauth, client, tokens }
})

/** The OAuth error an effect fails with (a defect if it succeeds or fails otherwise). */
export const oauthFailure = <A, R>(self: Effect.Effect<A, OAuthError | PersistenceUnavailable, R>) =>
  Effect.flatMap(Effect.flip(self), (e) => (e._tag === "OAuthError" ? Effect.succeed(e) : Effect.die(e)))

/** The OAuth error code an effect fails with. */
export const failureOf = <A, R>(self: Effect.Effect<A, OAuthError | PersistenceUnavailable, R>) =>
  Effect.map(oauthFailure(self), (e) => e.error)

/** The principal a raw credential authenticates as, if any. */
export const principalOf = (raw: string) =>
  Effect.gen(function* () {
    const credentials = yield* TeamCredentials
    return yield* credentials.authenticate(raw)
  })

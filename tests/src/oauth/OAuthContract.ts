import { assert, layer } from "@effect/vitest"
import {
  ApiKeyId,
  ApiKeys,
  type ApiKeysRepo,
  type AuthorizationCode,
  hashSecret,
  type LedgerRepo,
  OAuth,
  type OAuthError,
  OAuthRepo,
  type OAuthToken,
  type PersistenceUnavailable,
  pageRequest,
  purgeExpiredGrants,
  s256Challenge,
  TeamCredentials,
  TeamCredentialsLive,
  type TeamId,
  type TeamsRepo,
  type Transactor,
  type UserId,
  type UsersRepo
} from "@svc/domain"
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { domainOver, newTeam } from "../ledger/LedgerContract.ts"

const REDIRECT = "http://127.0.0.1:8976/callback"
const VERIFIER = "verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG"

/** The OAuth and API key services over whichever ports the caller provides. */
const servicesOver = <E, R>(ports: Layer.Layer<R, E>) =>
  TeamCredentialsLive.pipe(
    Layer.provideMerge(Layer.mergeAll(OAuth.layer, ApiKeys.layer)),
    Layer.provideMerge(domainOver(ports))
  )

const registerPublic = (scope?: string) =>
  Effect.gen(function* () {
    const oauth = yield* OAuth
    return yield* oauth.register({
      clientName: "Agent CLI",
      redirectUris: [REDIRECT],
      ...(scope === undefined ? {} : { scope })
    })
  })

const authorize = (
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
const publicGrant = Effect.gen(function* () {
  const oauth = yield* OAuth
  const { team, owner } = yield* newTeam
  const { application } = yield* registerPublic()
  const client = { clientId: application.clientId, clientSecret: undefined }
  const code = yield* authorize(application.clientId, owner.id, team.id)
  const tokens = yield* oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })
  return { oauth, client, tokens }
})

/** The OAuth error an effect fails with (a defect if it succeeds or fails otherwise). */
const oauthFailure = <A, R>(self: Effect.Effect<A, OAuthError | PersistenceUnavailable, R>) =>
  Effect.flatMap(Effect.flip(self), (e) => (e._tag === "OAuthError" ? Effect.succeed(e) : Effect.die(e)))

const failureOf = <A, R>(self: Effect.Effect<A, OAuthError | PersistenceUnavailable, R>) =>
  Effect.map(oauthFailure(self), (e) => e.error)

const principalOf = (raw: string) =>
  Effect.gen(function* () {
    const credentials = yield* TeamCredentials
    return yield* credentials.authenticate(raw)
  })

/** The behaviour every OAuthRepo/ApiKeysRepo adapter must show, through the OAuth, ApiKeys and TeamCredentials services. */
export const oauthContract = <E>(
  name: string,
  ports: Layer.Layer<Transactor | UsersRepo | TeamsRepo | LedgerRepo | OAuthRepo | ApiKeysRepo, E, never>
) =>
  layer(servicesOver(ports), { timeout: "60 seconds" })(`OAuth and API keys (${name})`, (it) => {
    it.effect("code with PKCE → tokens → a principal with the granted scopes; secrets are stored hashed", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret } = yield* registerPublic()
        assert.isNull(clientSecret)
        assert.match(application.clientId, /^mid_client_/)
        assert.strictEqual(application.status, "draft")
        assert.isNull(application.teamId)
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const tokens = yield* oauth.exchangeCode(
          { clientId: application.clientId, clientSecret: undefined },
          { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        )
        assert.match(tokens.accessToken, /^mid_access_token_/)
        assert.match(tokens.refreshToken, /^mid_refresh_token_/)
        assert.strictEqual(tokens.expiresIn, 7200)
        assert.strictEqual(tokens.scope, "users.read teams.read")
        const principal = yield* principalOf(tokens.accessToken)
        assert.deepStrictEqual(Option.getOrThrow(principal), {
          kind: "oauth",
          userId: owner.id,
          teamId: team.id,
          role: "owner",
          scopes: ["users.read", "teams.read"],
          credentialId: Option.getOrThrow(principal).credentialId
        })
        assert.isTrue(Option.isNone(yield* oauth.accessToken(`${tokens.accessToken}x`)))
        assert.isTrue(Option.isNone(yield* principalOf(tokens.refreshToken)), "a refresh token is not a credential")
        const claimed = yield* oauth.consent({
          responseType: "code",
          clientId: application.clientId,
          redirectUri: REDIRECT,
          scope: "users.read",
          state: "x",
          codeChallenge: yield* s256Challenge(VERIFIER),
          codeChallengeMethod: "S256"
        })
        assert.strictEqual(claimed.application.teamId, team.id, "the first authorization gives the app to the team")
      })
    )

    it.effect("a code is single use: reuse fails and revokes every token issued from it", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const client = { clientId: application.clientId, clientSecret: undefined }
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        const tokens = yield* oauth.exchangeCode(client, input)
        assert.strictEqual(yield* failureOf(oauth.exchangeCode(client, input)), "invalid_grant")
        assert.isTrue(Option.isNone(yield* principalOf(tokens.accessToken)))
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: tokens.refreshToken, scope: undefined })),
          "invalid_grant"
        )
      })
    )

    it.effect("two concurrent exchanges of one code: exactly one gets tokens, and those are revoked", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const client = { clientId: application.clientId, clientSecret: undefined }
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        const results = yield* Effect.all(
          [Effect.result(oauth.exchangeCode(client, input)), Effect.result(oauth.exchangeCode(client, input))],
          { concurrency: 2 }
        )
        const wins = results.filter((r) => r._tag === "Success")
        assert.strictEqual(wins.length, 1)
        const win = wins[0]!
        if (win._tag === "Success") assert.isTrue(Option.isNone(yield* principalOf(win.success.accessToken)))
      })
    )

    it.effect(
      "PKCE: a wrong or missing verifier fails without burning the code; a verifier without a challenge fails",
      () =>
        Effect.gen(function* () {
          const oauth = yield* OAuth
          const { team, owner } = yield* newTeam
          const { application } = yield* registerPublic()
          const client = { clientId: application.clientId, clientSecret: undefined }
          const code = yield* authorize(application.clientId, owner.id, team.id)
          const wrong = `${VERIFIER.slice(0, -1)}H`
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: wrong })),
            "invalid_grant"
          )
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: undefined })),
            "invalid_grant"
          )
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: "short" })),
            "invalid_request"
          )
          yield* oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })

          const confidential = yield* oauth.register({
            clientName: "Server app",
            redirectUris: [REDIRECT],
            tokenEndpointAuthMethod: "client_secret_basic"
          })
          const secretClient = { clientId: confidential.application.clientId, clientSecret: confidential.clientSecret! }
          const noChallenge = yield* authorize(confidential.application.clientId, owner.id, team.id, { verifier: null })
          assert.strictEqual(
            yield* failureOf(
              oauth.exchangeCode(secretClient, { code: noChallenge, redirectUri: REDIRECT, codeVerifier: VERIFIER })
            ),
            "invalid_grant"
          )
          yield* oauth.exchangeCode(secretClient, { code: noChallenge, redirectUri: REDIRECT, codeVerifier: undefined })
        })
    )

    it.effect("public clients must send a code_challenge; codes expire after 5 minutes; redirect URIs must match", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const client = { clientId: application.clientId, clientSecret: undefined }
        const noPkce = yield* oauthFailure(authorize(application.clientId, owner.id, team.id, { verifier: null }))
        assert.deepStrictEqual([noPkce.error, noPkce.redirectable], ["invalid_request", true])
        const elsewhere = yield* oauthFailure(
          oauth.decide(owner.id, {
            clientId: application.clientId,
            decision: "allow",
            scopes: ["users.read"],
            redirectUri: "https://evil.example.com/cb",
            teamId: team.id,
            codeChallenge: yield* s256Challenge(VERIFIER)
          })
        )
        assert.deepStrictEqual([elsewhere.error, elsewhere.redirectable], ["invalid_request", false])

        const code = yield* authorize(application.clientId, owner.id, team.id)
        assert.strictEqual(
          yield* failureOf(
            oauth.exchangeCode(client, { code, redirectUri: "http://127.0.0.1:8976/other", codeVerifier: VERIFIER })
          ),
          "invalid_grant"
        )
        yield* TestClock.adjust("5 minutes")
        assert.strictEqual(
          yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })),
          "invalid_grant"
        )
      })
    )

    it.effect("refresh rotates; reusing a rotated token revokes the family; scope may narrow, never widen", () =>
      Effect.gen(function* () {
        const { oauth, client, tokens: first } = yield* publicGrant
        assert.strictEqual(
          yield* failureOf(
            oauth.refresh(client, { refreshToken: first.refreshToken, scope: "users.read users.write" })
          ),
          "invalid_scope"
        )
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: first.refreshToken, scope: "nonsense.scope" })),
          "invalid_scope"
        )
        const narrowed = yield* oauth.refresh(client, { refreshToken: first.refreshToken, scope: "users.read" })
        assert.strictEqual(narrowed.scope, "users.read")
        assert.notStrictEqual(narrowed.refreshToken, first.refreshToken)
        assert.deepStrictEqual(Option.getOrThrow(yield* principalOf(narrowed.accessToken)).scopes, ["users.read"])
        const again = yield* oauth.refresh(client, { refreshToken: narrowed.refreshToken, scope: undefined })
        assert.strictEqual(again.scope, "users.read teams.read", "the refresh token keeps the original grant")

        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: first.refreshToken, scope: undefined })),
          "invalid_grant"
        )
        for (const token of [first.accessToken, narrowed.accessToken, again.accessToken]) {
          assert.isTrue(Option.isNone(yield* principalOf(token)), "every token of the family is revoked")
        }
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: again.refreshToken, scope: undefined })),
          "invalid_grant"
        )
      })
    )

    it.effect("access tokens end after 2 hours and refresh tokens after 30 days", () =>
      Effect.gen(function* () {
        const { oauth, client, tokens } = yield* publicGrant
        yield* TestClock.adjust("119 minutes")
        assert.isTrue(Option.isSome(yield* principalOf(tokens.accessToken)))
        yield* TestClock.adjust("1 minute")
        assert.isTrue(Option.isNone(yield* principalOf(tokens.accessToken)))
        const later = yield* oauth.refresh(client, { refreshToken: tokens.refreshToken, scope: undefined })
        yield* TestClock.adjust("30 days")
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: later.refreshToken, scope: undefined })),
          "invalid_grant"
        )
      })
    )

    it.effect(
      "the purge deletes codes and tokens expired longer than the grace; live and recently expired ones stay",
      () =>
        Effect.gen(function* () {
          const repo = yield* OAuthRepo
          const { team, owner } = yield* newTeam
          const { application } = yield* registerPublic()
          const now = yield* Clock.currentTimeMillis
          const at = (hours: number) => new Date(now + hours * 3_600_000).toISOString()
          const grant = {
            grantId: crypto.randomUUID(),
            applicationId: application.id,
            teamId: team.id,
            userId: owner.id
          }
          const code = (expiresInHours: number): AuthorizationCode => ({
            ...grant,
            codeHash: crypto.randomUUID(),
            scopes: ["users.read"],
            redirectUri: REDIRECT,
            codeChallenge: null,
            expiresAt: at(expiresInHours),
            usedAt: null,
            createdAt: at(expiresInHours - 1)
          })
          const token = (expiresInHours: number, kind: OAuthToken["kind"]): OAuthToken => ({
            ...grant,
            id: crypto.randomUUID(),
            tokenHash: crypto.randomUUID(),
            kind,
            scopes: ["users.read"],
            expiresAt: at(expiresInHours),
            rotatedAt: null,
            revokedAt: null,
            createdAt: at(expiresInHours - 2)
          })
          const codes = { expiredLongAgo: code(-25), expiredRecently: code(-23), live: code(0.05) }
          const tokens = {
            expiredLongAgo: token(-48, "refresh"),
            expiredRecently: token(-1, "access"),
            live: token(700, "refresh")
          }
          for (const c of Object.values(codes)) yield* repo.insertCode(c)
          for (const t of Object.values(tokens)) yield* repo.insertToken(t)
          yield* TestClock.setTime(now)
          assert.isAtLeast(yield* purgeExpiredGrants(Duration.hours(24)), 2)
          const kept = {
            codes: yield* Effect.forEach(Object.values(codes), (c) =>
              Effect.map(repo.findCode(c.codeHash), Option.isSome)
            ),
            tokens: yield* Effect.forEach(Object.values(tokens), (t) =>
              Effect.map(repo.findToken(t.tokenHash), Option.isSome)
            )
          }
          assert.deepStrictEqual(kept, { codes: [false, true, true], tokens: [false, true, true] })
        })
    )

    it.effect("revocation: an access token alone, a refresh token with its family; unknown tokens succeed", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const other = yield* registerPublic()
        const client = { clientId: application.clientId, clientSecret: undefined }
        const grant = () =>
          Effect.flatMap(authorize(application.clientId, owner.id, team.id), (code) =>
            oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })
          )
        const a = yield* grant()
        yield* oauth.revoke(client, a.accessToken)
        assert.isTrue(Option.isNone(yield* principalOf(a.accessToken)))
        const refreshed = yield* oauth.refresh(client, { refreshToken: a.refreshToken, scope: undefined })
        assert.isTrue(Option.isSome(yield* principalOf(refreshed.accessToken)))

        const b = yield* grant()
        assert.strictEqual(
          yield* failureOf(
            oauth.revoke({ clientId: other.application.clientId, clientSecret: undefined }, b.refreshToken)
          ),
          "unauthorized_client"
        )
        yield* oauth.revoke(client, b.refreshToken)
        assert.isTrue(Option.isNone(yield* principalOf(b.accessToken)))
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: b.refreshToken, scope: undefined })),
          "invalid_grant"
        )
        yield* oauth.revoke(client, "mid_access_token_unknown")
        assert.strictEqual(
          yield* failureOf(oauth.revoke({ clientId: "mid_client_nope", clientSecret: undefined }, b.accessToken)),
          "invalid_client"
        )
      })
    )

    it.effect("confidential clients: the secret is shown once, stored hashed, and checked", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret } = yield* oauth.register({
          clientName: "Server app",
          redirectUris: [REDIRECT],
          tokenEndpointAuthMethod: "client_secret_post",
          scope: "users.read transactions.read"
        })
        assert.match(clientSecret!, /^mid_client_secret_/)
        assert.strictEqual(application.clientSecretHash, yield* hashSecret(clientSecret!))
        const code = yield* authorize(application.clientId, owner.id, team.id, { scopes: ["users.read"] })
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        for (const secret of [undefined, "mid_client_secret_wrong", `${clientSecret}x`]) {
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode({ clientId: application.clientId, clientSecret: secret }, input)),
            "invalid_client"
          )
        }
        yield* oauth.exchangeCode({ clientId: application.clientId, clientSecret: clientSecret! }, input)
        const beyond = yield* oauthFailure(
          authorize(application.clientId, owner.id, team.id, { scopes: ["users.read", "teams.read"] })
        )
        assert.deepStrictEqual([beyond.error, beyond.redirectable], ["invalid_scope", true])
      })
    )

    it.effect("an application belongs to the first team that authorizes it; other teams are refused", () =>
      Effect.gen(function* () {
        const first = yield* newTeam
        const second = yield* newTeam
        const { application } = yield* registerPublic()
        yield* authorize(application.clientId, first.owner.id, first.team.id)
        const refused = yield* oauthFailure(authorize(application.clientId, second.owner.id, second.team.id))
        assert.strictEqual(refused.error, "unauthorized_client")
        const notMember = yield* oauthFailure(authorize(application.clientId, second.owner.id, first.team.id))
        assert.strictEqual(notMember.error, "access_denied")
      })
    )

    it.effect("generic API keys: value once and hashed, listed newest first without it, scoped, revocable", () =>
      Effect.gen(function* () {
        const apiKeys = yield* ApiKeys
        const { team, owner } = yield* newTeam
        const creator = { userId: owner.id, teamId: team.id }
        const full = yield* apiKeys.create(creator, { name: "Full" })
        const scoped = yield* apiKeys.create(creator, { name: "Reader", scopes: ["users.read"] })
        assert.match(full.secret, /^svcapi_/)
        assert.strictEqual(full.key.secretHash, yield* hashSecret(full.secret))
        assert.notInclude(JSON.stringify(full.key), full.secret)
        const page = yield* apiKeys.list(team.id, yield* pageRequest(undefined, 1))
        assert.deepStrictEqual(
          page.data.map((k) => k.name),
          ["Reader"]
        )
        assert.isTrue(page.meta.hasNextPage)
        const rest = yield* apiKeys.list(team.id, yield* pageRequest(page.meta.cursor!, 10))
        assert.deepStrictEqual(
          rest.data.map((k) => k.name),
          ["Full"]
        )
        assert.deepStrictEqual(Option.getOrThrow(yield* principalOf(scoped.secret)), {
          kind: "api_key",
          userId: owner.id,
          teamId: team.id,
          role: "owner",
          scopes: ["users.read"],
          credentialId: scoped.key.id
        })
        assert.isNull(Option.getOrThrow(yield* principalOf(full.secret)).scopes)
        assert.strictEqual(
          (yield* Effect.flip(apiKeys.create(creator, { name: "Bad", scopes: ["apis.all"] })))._tag,
          "UnknownScope"
        )

        const memberId = crypto.randomUUID() as UserId
        const other = yield* newTeam
        assert.strictEqual(
          (yield* Effect.flip(apiKeys.revoke({ userId: memberId, teamId: other.team.id, role: "owner" }, full.key.id)))
            ._tag,
          "ApiKeyNotFound",
          "another team cannot see the key"
        )
        assert.strictEqual(
          (yield* Effect.flip(apiKeys.revoke({ userId: memberId, teamId: team.id, role: "member" }, full.key.id)))._tag,
          "ApiKeyRevokeForbidden"
        )
        const revoked = yield* apiKeys.revoke({ ...creator, role: "owner" }, full.key.id)
        assert.isNotNull(revoked.revokedAt)
        const twice = yield* apiKeys.revoke({ ...creator, role: "owner" }, full.key.id)
        assert.strictEqual(twice.revokedAt, revoked.revokedAt)
        assert.isTrue(Option.isNone(yield* principalOf(full.secret)))
        assert.isTrue(Option.isSome(yield* principalOf(scoped.secret)))
        assert.strictEqual(
          (yield* Effect.flip(apiKeys.revoke({ ...creator, role: "owner" }, ApiKeyId.make(crypto.randomUUID()))))._tag,
          "ApiKeyNotFound"
        )
      })
    )
  })

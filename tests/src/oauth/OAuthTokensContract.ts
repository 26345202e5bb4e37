import { assert, layer } from "@effect/vitest"
import { type AuthorizationCode, OAuth, OAuthRepo, type OAuthToken, purgeExpiredGrants } from "@svc/domain"
import { Clock, Duration, Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { newTeam } from "../ledger/LedgerSetup.ts"
import {
  authorize,
  failureOf,
  type OAuthPorts,
  principalOf,
  publicGrant,
  REDIRECT,
  registerPublic,
  servicesOver,
  VERIFIER
} from "./OAuthSetup.ts"

/** The tokens every OAuthRepo adapter must carry: refresh rotation and reuse detection, lifetimes, revocation, the purge. */
export const oauthTokensContract = <E>(name: string, ports: Layer.Layer<OAuthPorts, E, never>) =>
  layer(servicesOver(ports), { timeout: "60 seconds" })(`OAuth tokens (${name})`, (it) => {
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
  })

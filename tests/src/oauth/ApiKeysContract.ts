import { assert, layer } from "@effect/vitest"
import { ApiKeyId, ApiKeys, hashSecret, pageRequest, type UserId } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { newTeam } from "../ledger/LedgerSetup.ts"
import { type OAuthPorts, principalOf, servicesOver } from "./OAuthSetup.ts"

/** The generic API keys every ApiKeysRepo adapter must carry, through the ApiKeys and TeamCredentials services. */
export const apiKeysContract = <E>(name: string, ports: Layer.Layer<OAuthPorts, E, never>) =>
  layer(servicesOver(ports), { timeout: "60 seconds" })(`API keys (${name})`, (it) => {
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

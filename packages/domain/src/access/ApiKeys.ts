import { Context, Effect, Layer, Option, Result, Schema } from "effect"
import { TeamsRepo } from "../identity/index.ts"
import type { Role } from "../identity/model.ts"
import { OAUTH_SCOPES, parseScope } from "../oauth/index.ts"
import {
  constantTimeEqual,
  generateSecret,
  hashSecret,
  newId,
  nowIso,
  type Page,
  type PageRequest,
  type TeamId,
  toPage,
  type UserId
} from "../shared/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"
import { API_KEY_PREFIX, type ApiKey, ApiKeyId } from "./ApiKey.ts"
import { mayRevokeApiKey } from "./Authorization.ts"
import type { TeamPrincipal } from "./Principals.ts"

/** No such key in this team. */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", { id: Schema.String }) {}

/** A scope the key asks for does not exist. */
export class UnknownScope extends Schema.TaggedError<UnknownScope>()("UnknownScope", { scope: Schema.String }) {}

/** Only owners, admins and the key's creator may revoke it. */
export class ApiKeyRevokeForbidden extends Schema.TaggedError<ApiKeyRevokeForbidden>()("ApiKeyRevokeForbidden", {
  id: Schema.String
}) {}

/** Storage of generic API keys. */
export class ApiKeysRepo extends Context.Service<
  ApiKeysRepo,
  {
    readonly insert: (key: ApiKey) => Effect.Effect<void, PersistenceUnavailable>
    /** Up to `limit + 1` keys of the team, newest first, after the page's position. */
    readonly list: (teamId: TeamId, page: PageRequest) => Effect.Effect<ReadonlyArray<ApiKey>, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: ApiKeyId) => Effect.Effect<Option.Option<ApiKey>, PersistenceUnavailable>
    readonly findBySecretHash: (secretHash: string) => Effect.Effect<Option.Option<ApiKey>, PersistenceUnavailable>
    /** Sets `revokedAt` once (a second revoke keeps the first time); returns the key as stored afterwards. */
    readonly revoke: (
      teamId: TeamId,
      id: ApiKeyId,
      now: string
    ) => Effect.Effect<Option.Option<ApiKey>, PersistenceUnavailable>
  }
>()("@svc/domain/ApiKeysRepo") {}

/** A key just created, with its raw value (returned once). */
export interface CreatedApiKey {
  readonly key: ApiKey
  readonly secret: string
}

/** Generic API keys (`svcapi_`): created by a team member, shown once, listed without the secret, revoked. */
export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    readonly create: (
      creator: { readonly userId: UserId; readonly teamId: TeamId },
      input: { readonly name: string; readonly scopes?: ReadonlyArray<string> | undefined }
    ) => Effect.Effect<CreatedApiKey, UnknownScope | PersistenceUnavailable>
    readonly list: (teamId: TeamId, page: PageRequest) => Effect.Effect<Page<ApiKey>, PersistenceUnavailable>
    readonly revoke: (
      actor: { readonly userId: UserId; readonly teamId: TeamId; readonly role: Role },
      id: ApiKeyId
    ) => Effect.Effect<ApiKey, ApiKeyNotFound | ApiKeyRevokeForbidden | PersistenceUnavailable>
    /** The principal behind a raw key: none when unknown, revoked, or its creator left the team. */
    readonly authenticate: (raw: string) => Effect.Effect<Option.Option<TeamPrincipal>, PersistenceUnavailable>
  }
>()("@svc/domain/ApiKeys") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* ApiKeysRepo
    const teams = yield* TeamsRepo

    const create = Effect.fn("ApiKeys.create")(function* (
      creator: { readonly userId: UserId; readonly teamId: TeamId },
      input: { readonly name: string; readonly scopes?: ReadonlyArray<string> | undefined }
    ) {
      let scopes: ReadonlyArray<string> | null = null
      if (input.scopes !== undefined) {
        const parsed = parseScope(input.scopes.join(" "), OAUTH_SCOPES)
        if (Result.isFailure(parsed) && parsed.failure !== "") {
          return yield* new UnknownScope({ scope: parsed.failure })
        }
        scopes = Result.getOrElse(parsed, () => [])
      }
      const secret = yield* generateSecret(API_KEY_PREFIX)
      const key: ApiKey = {
        id: yield* newId(ApiKeyId),
        teamId: creator.teamId,
        name: input.name,
        scopes,
        createdBy: creator.userId,
        secretHash: yield* hashSecret(secret),
        preview: `${API_KEY_PREFIX}…${secret.slice(-4)}`,
        createdAt: yield* nowIso,
        revokedAt: null
      }
      yield* repo.insert(key)
      return { key, secret }
    })

    const list = Effect.fn("ApiKeys.list")(function* (teamId: TeamId, page: PageRequest) {
      return toPage(page, yield* repo.list(teamId, page))
    })

    const revoke = Effect.fn("ApiKeys.revoke")(function* (
      actor: { readonly userId: UserId; readonly teamId: TeamId; readonly role: Role },
      id: ApiKeyId
    ) {
      const found = yield* repo.find(actor.teamId, id)
      if (Option.isNone(found)) return yield* new ApiKeyNotFound({ id })
      if (!mayRevokeApiKey(actor, found.value)) return yield* new ApiKeyRevokeForbidden({ id })
      const now = yield* nowIso
      const revoked = yield* repo.revoke(actor.teamId, id, now)
      return Option.getOrElse(revoked, () => found.value)
    })

    const authenticate = Effect.fn("ApiKeys.authenticate")(function* (raw: string) {
      if (!raw.startsWith(API_KEY_PREFIX)) return Option.none<TeamPrincipal>()
      const hash = yield* hashSecret(raw)
      const found = yield* repo.findBySecretHash(hash)
      if (Option.isNone(found) || found.value.revokedAt !== null || !constantTimeEqual(found.value.secretHash, hash)) {
        return Option.none<TeamPrincipal>()
      }
      const key = found.value
      const membership = yield* teams.membership(key.teamId, key.createdBy)
      return Option.map(
        membership,
        (m): TeamPrincipal => ({
          kind: "api_key",
          userId: key.createdBy,
          teamId: key.teamId,
          role: m.role,
          scopes: key.scopes,
          credentialId: key.id
        })
      )
    })

    return ApiKeys.of({ create, list, revoke, authenticate })
  })
  static readonly layer = Layer.effect(ApiKeys, ApiKeys.make)
}

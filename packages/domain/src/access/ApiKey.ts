import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** Raw value prefix of generic API keys. */
export const API_KEY_PREFIX = "svcapi_"

/** A generic API key id. */
export const ApiKeyId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

/** A team's generic API key; the raw value is never stored, only its SHA-256 hash. */
export const ApiKey = Schema.Struct({
  id: ApiKeyId,
  teamId: TeamId,
  name: Schema.String,
  /** null grants every scope the creator has. */
  scopes: Schema.NullOr(Schema.Array(Schema.String)),
  createdBy: UserId,
  secretHash: Schema.String,
  /** A recognisable, non-secret part of the key for lists (`svcapi_…` and its last four characters). */
  preview: Schema.String,
  createdAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String)
})
export type ApiKey = typeof ApiKey.Type

/** A generic API key as its team sees it: never the secret. */
export const ApiKeyView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("api_key"),
  name: Schema.String,
  scopes: Schema.NullOr(Schema.Array(Schema.String)),
  preview: Schema.String,
  createdBy: Schema.String,
  createdAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String)
})
export type ApiKeyView = typeof ApiKeyView.Type

/** The view of a generic API key. */
export const apiKeyView = (key: ApiKey): ApiKeyView => ({
  id: key.id,
  object: "api_key",
  name: key.name,
  scopes: key.scopes,
  preview: key.preview,
  createdBy: key.createdBy,
  createdAt: key.createdAt,
  revokedAt: key.revokedAt
})

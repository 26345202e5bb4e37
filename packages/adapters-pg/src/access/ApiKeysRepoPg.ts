import { ApiKey, ApiKeysRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS = "id, team_id, name, scopes, created_by, secret_hash, preview, created_at, revoked_at"

/** ApiKeysRepo on Postgres. */
export const ApiKeysRepoPg = Layer.effect(
  ApiKeysRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return ApiKeysRepo.of({
      insert: (key) =>
        sql`INSERT INTO api_keys (${sql.literal(COLUMNS)})
            VALUES (${key.id}, ${key.teamId}, ${key.name}, ${key.scopes === null ? null : JSON.stringify(key.scopes)}::jsonb,
              ${key.createdBy}, ${key.secretHash}, ${key.preview}, ${key.createdAt}, ${key.revokedAt})`.pipe(
          Effect.asVoid,
          orUnavailable("apiKeys.insert")
        ),
      list: (teamId, page) =>
        Option.match(page.after, {
          onNone: () =>
            sql`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId}
                           ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`,
          onSome: (after) =>
            sql`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId}
                             AND (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)
                           ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
        }).pipe(orUnavailable("apiKeys.list"), Effect.flatMap(decodeRows(ApiKey, "apiKeys.list"))),
      find: (teamId, id) =>
        sql`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId} AND id = ${id}`.pipe(
          orUnavailable("apiKeys.find"),
          Effect.flatMap(decodeFirst(ApiKey, "apiKeys.find"))
        ),
      findBySecretHash: (secretHash) =>
        sql`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE secret_hash = ${secretHash}`.pipe(
          orUnavailable("apiKeys.findBySecretHash"),
          Effect.flatMap(decodeFirst(ApiKey, "apiKeys.findBySecretHash"))
        ),
      revoke: (teamId, id, now) =>
        sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${now}::timestamptz)
                       WHERE team_id = ${teamId} AND id = ${id} RETURNING ${sql.literal(COLUMNS)}`.pipe(
          orUnavailable("apiKeys.revoke"),
          Effect.flatMap(decodeFirst(ApiKey, "apiKeys.revoke"))
        )
    })
  })
)

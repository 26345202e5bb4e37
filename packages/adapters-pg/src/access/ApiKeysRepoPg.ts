import { type ApiKey, type ApiKeyId, ApiKeysRepo, type TeamId, type UserId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface ApiKeyRow {
  readonly id: string
  readonly teamId: string
  readonly name: string
  readonly scopes: ReadonlyArray<string> | null
  readonly createdBy: string
  readonly secretHash: string
  readonly preview: string
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

const COLUMNS = "id, team_id, name, scopes, created_by, secret_hash, preview, created_at, revoked_at"

const toKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id as ApiKeyId,
  teamId: row.teamId as TeamId,
  name: row.name,
  scopes: row.scopes,
  createdBy: row.createdBy as UserId,
  secretHash: row.secretHash,
  preview: row.preview,
  createdAt: iso(row.createdAt),
  revokedAt: row.revokedAt === null ? null : iso(row.revokedAt)
})

const first = (rows: ReadonlyArray<ApiKeyRow>) => Option.map(Option.fromNullishOr(rows[0]), toKey)

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
            sql<ApiKeyRow>`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId}
                           ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`,
          onSome: (after) =>
            sql<ApiKeyRow>`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId}
                             AND (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)
                           ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
        }).pipe(
          Effect.map((rows) => rows.map(toKey)),
          orUnavailable("apiKeys.list")
        ),
      find: (teamId, id) =>
        sql<ApiKeyRow>`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE team_id = ${teamId} AND id = ${id}`.pipe(
          Effect.map(first),
          orUnavailable("apiKeys.find")
        ),
      findBySecretHash: (secretHash) =>
        sql<ApiKeyRow>`SELECT ${sql.literal(COLUMNS)} FROM api_keys WHERE secret_hash = ${secretHash}`.pipe(
          Effect.map(first),
          orUnavailable("apiKeys.findBySecretHash")
        ),
      revoke: (teamId, id, now) =>
        sql<ApiKeyRow>`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${now}::timestamptz)
                       WHERE team_id = ${teamId} AND id = ${id} RETURNING ${sql.literal(COLUMNS)}`.pipe(
          Effect.map(first),
          orUnavailable("apiKeys.revoke")
        )
    })
  })
)

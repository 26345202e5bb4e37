import { IdempotencyStore, StoredResponse, scopeText } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, deletedCount, inTransaction, orUnavailable } from "../shared/index.ts"

const StoredResponseRow = Schema.Struct({ ...StoredResponse.fields, body: Schema.Uint8ArrayFromBase64 })

/**
 * IdempotencyStore on Postgres. The lock is `pg_try_advisory_xact_lock` on a hash of the scope, so it is shared by
 * every process on the database and released by the transaction's end, even when the process holding it dies.
 */
export const IdempotencyStorePg = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyStore.of({
      exclusive: (scope, self) =>
        Effect.gen(function* () {
          const [row] = yield* sql<{ locked: boolean }>`
            SELECT pg_try_advisory_xact_lock(hashtextextended(${scopeText(scope)}, 0)) AS locked`.pipe(
            orUnavailable("idempotency.lock")
          )
          return row?.locked === true ? Option.some(yield* self) : Option.none()
        }).pipe(inTransaction(sql, "idempotency.transaction")),
      find: (scope) =>
        sql`
          SELECT fingerprint, status, headers, encode(body, 'base64') AS body, created_at
          FROM idempotency_responses
          WHERE team_id = ${scope.teamId} AND mode = ${scope.mode} AND credential_id = ${scope.credentialId}
            AND method = ${scope.method} AND path = ${scope.path} AND key = ${scope.key}`.pipe(
          orUnavailable("idempotency.find"),
          Effect.flatMap(decodeFirst(StoredResponseRow, "idempotency.find"))
        ),
      save: (scope, response) =>
        sql`
          INSERT INTO idempotency_responses
            (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, created_at)
          VALUES (${scope.teamId}, ${scope.mode}, ${scope.credentialId}, ${scope.method}, ${scope.path}, ${scope.key},
            ${response.fingerprint}, ${response.status}, ${JSON.stringify(response.headers)}::jsonb,
            decode(${Buffer.from(response.body).toString("base64")}, 'base64'), ${response.createdAt})
          ON CONFLICT DO NOTHING
          RETURNING 1 AS stored`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("idempotency.save")
        ),
      purgeCreatedBefore: (cutoff) =>
        deletedCount(sql, sql`DELETE FROM idempotency_responses WHERE created_at < ${cutoff}`).pipe(
          orUnavailable("idempotency.purge")
        )
    })
  })
)

import { type IdempotencyScope, IdempotencyStore, StoredResponse, scopeText } from "@svc/domain"
import { type Array as Arr, Effect, Fiber, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, deletedCount, inTransaction, orUnavailable } from "../shared/index.ts"

const StoredResponseRow = Schema.Struct({ ...StoredResponse.fields, body: Schema.Uint8ArrayFromBase64 })

/**
 * IdempotencyStore on Postgres. A lock is `pg_try_advisory_xact_lock` on a hash of the scope, so it is shared by
 * every process on the database and released by the transaction's end, even when the process holding it dies.
 */
export const IdempotencyStorePg = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Takes the free locks of `scopes` in one statement; true where this transaction holds a scope's lock first. */
    const lockEach = (scopes: ReadonlyArray<IdempotencyScope>) =>
      Effect.gen(function* () {
        if (scopes.length === 0) return []
        const texts = scopes.map(scopeText)
        const firsts = texts.filter((text, i) => texts.indexOf(text) === i)
        const rows = yield* sql<{ locked: boolean }>`
          SELECT pg_try_advisory_xact_lock(hashtextextended(s.scope, 0)) AS locked
          FROM jsonb_array_elements_text(${JSON.stringify(firsts)}::jsonb) WITH ORDINALITY AS s(scope, n)
          ORDER BY s.n`.pipe(orUnavailable("idempotency.lock"))
        return texts.map((text, i) => texts.indexOf(text) === i && rows[firsts.indexOf(text)]?.locked === true)
      })

    const saveEach = (
      answers: Arr.NonEmptyReadonlyArray<{ readonly scope: IdempotencyScope; readonly response: StoredResponse }>
    ) =>
      sql<{ readonly n: number }>`
        WITH answer AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(
            answers.map(({ scope, response }, n) => ({
              n,
              team_id: scope.teamId,
              mode: scope.mode,
              credential_id: scope.credentialId,
              method: scope.method,
              path: scope.path,
              key: scope.key,
              fingerprint: response.fingerprint,
              status: response.status,
              headers: response.headers,
              body: Buffer.from(response.body).toString("base64"),
              created_at: response.createdAt
            }))
          )}::jsonb) AS a(n int, team_id uuid, mode text, credential_id text, method text, path text, key text,
                          fingerprint text, status int, headers jsonb, body text, created_at timestamptz)
        )
        INSERT INTO idempotency_responses AS r
          (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, created_at)
        SELECT team_id, mode, credential_id, method, path, key, fingerprint, status, headers, decode(body, 'base64'),
               created_at
        FROM answer ORDER BY n
        ON CONFLICT DO NOTHING
        RETURNING (SELECT a.n FROM answer a
                   WHERE (a.team_id, a.mode, a.credential_id, a.method, a.path, a.key)
                       = (r.team_id, r.mode, r.credential_id, r.method, r.path, r.key)
                   ORDER BY a.n LIMIT 1) AS n`.pipe(
        Effect.map((rows) => {
          const saved = new Set(rows.map((row) => row.n))
          return answers.map((_, n) => saved.has(n))
        }),
        orUnavailable("idempotency.save")
      )

    return IdempotencyStore.of({
      exclusive: (scope, self) =>
        Effect.gen(function* () {
          const [held] = yield* lockEach([scope])
          return held === true ? Option.some(yield* self) : Option.none()
        }).pipe(inTransaction(sql, "idempotency.transaction")),
      exclusiveEach: (scopes, self) =>
        // The lock statement is issued at once on the transaction's connection; `self`'s statements follow it.
        Effect.flatMap(Effect.forkChild(lockEach(scopes)), (locking) => self(Fiber.join(locking))).pipe(
          inTransaction(sql, "idempotency.transaction")
        ),
      find: (scope) =>
        sql`
          SELECT fingerprint, status, headers, encode(body, 'base64') AS body, created_at
          FROM idempotency_responses
          WHERE team_id = ${scope.teamId} AND mode = ${scope.mode} AND credential_id = ${scope.credentialId}
            AND method = ${scope.method} AND path = ${scope.path} AND key = ${scope.key}`.pipe(
          orUnavailable("idempotency.find"),
          Effect.flatMap(decodeFirst(StoredResponseRow, "idempotency.find"))
        ),
      save: (scope, response) => Effect.map(saveEach([{ scope, response }]), ([saved]) => saved === true),
      saveEach,
      purgeCreatedBefore: (cutoff) =>
        deletedCount(sql, sql`DELETE FROM idempotency_responses WHERE created_at < ${cutoff}`).pipe(
          orUnavailable("idempotency.purge")
        )
    })
  })
)

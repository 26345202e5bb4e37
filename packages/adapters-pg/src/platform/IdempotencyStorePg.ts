import {
  type IdempotencyScope,
  IdempotencyStore,
  isStoredOutcome,
  type StoredAnswer,
  StoredOutcome,
  StoredResponse,
  scopeText
} from "@svc/domain"
import { type Array as Arr, Effect, Fiber, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, deletedCount, inTransaction, orUnavailable } from "../shared/index.ts"

/**
 * A row as the answer it holds: a rendered response (its outcome null) or a domain's outcome (its response columns
 * null), the other form's columns dropped. The outcome is read as text: its keys are data, which the client's result
 * name transform would rename.
 */
const StoredAnswerRow = Schema.Union([
  Schema.Struct({ ...StoredResponse.fields, body: Schema.Uint8ArrayFromBase64 }),
  Schema.Struct({ ...StoredOutcome.fields, outcome: Schema.fromJsonString(Schema.Json) })
])

/** The columns of an answer: the other form's are null. */
const answerColumns = (answer: StoredAnswer) =>
  isStoredOutcome(answer)
    ? { status: null, headers: null, body: null, outcome: answer.outcome }
    : {
        status: answer.status,
        headers: answer.headers,
        body: Buffer.from(answer.body).toString("base64"),
        outcome: null
      }

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
      answers: Arr.NonEmptyReadonlyArray<{ readonly scope: IdempotencyScope; readonly response: StoredAnswer }>
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
              ...answerColumns(response),
              created_at: response.createdAt
            }))
          )}::jsonb) AS a(n int, team_id uuid, mode text, credential_id text, method text, path text, key text,
                          fingerprint text, status int, headers jsonb, body text, outcome jsonb,
                          created_at timestamptz)
        )
        INSERT INTO idempotency_responses AS r
          (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, outcome, created_at)
        SELECT team_id, mode, credential_id, method, path, key, fingerprint, status, headers, decode(body, 'base64'),
               outcome, created_at
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
          SELECT fingerprint, status, headers, encode(body, 'base64') AS body, outcome::text AS outcome, created_at
          FROM idempotency_responses
          WHERE team_id = ${scope.teamId} AND mode = ${scope.mode} AND credential_id = ${scope.credentialId}
            AND method = ${scope.method} AND path = ${scope.path} AND key = ${scope.key}`.pipe(
          orUnavailable("idempotency.find"),
          Effect.flatMap(decodeFirst(StoredAnswerRow, "idempotency.find"))
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

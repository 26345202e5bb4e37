import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { type IdempotencyScope, IdempotencyStore, isStoredOutcome, type TeamId } from "@svc/domain"
import { Effect, Exit, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0043 (idempotency outcomes)",
  (it) => {
    it.effect("keeps the responses stored before it, which replay as they were, and holds one form a row", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(43))
        const scope: IdempotencyScope = {
          teamId: crypto.randomUUID() as TeamId,
          mode: "test",
          credentialId: "key-1",
          method: "POST",
          path: "/v1/spend-requests",
          key: "k-1"
        }
        const body = new TextEncoder().encode('{"id":"x","object":"spend_request"}')
        yield* sql`INSERT INTO idempotency_responses
                     (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, created_at)
                   VALUES (${scope.teamId}, 'test', 'key-1', 'POST', '/v1/spend-requests', 'k-1', 'ab',
                     201, '{"content-type":"application/json"}'::jsonb, ${body}, '2030-01-02T03:04:05.678Z')`
        assert.deepStrictEqual(
          (yield* runMigrations(migrationsBefore(44))).map(([id]) => id),
          [43]
        )
        yield* runMigrations()
        const found = Option.getOrThrow(yield* IdempotencyStore.use((store) => store.find(scope)))
        assert.deepStrictEqual(isStoredOutcome(found) ? found : { ...found, body: Array.from(found.body) }, {
          fingerprint: "ab",
          status: 201,
          headers: { "content-type": "application/json" },
          body: Array.from(body),
          createdAt: "2030-01-02T03:04:05.678Z"
        })
        const neither = yield* Effect.exit(
          sql`INSERT INTO idempotency_responses (team_id, mode, credential_id, method, path, key, fingerprint, created_at)
              VALUES (${scope.teamId}, 'test', 'key-1', 'POST', '/v1/spend-requests', 'k-2', 'ab', now())`
        )
        const both = yield* Effect.exit(
          sql`INSERT INTO idempotency_responses
                (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, outcome, created_at)
              VALUES (${scope.teamId}, 'test', 'key-1', 'POST', '/v1/spend-requests', 'k-3', 'ab', 201, '{}'::jsonb,
                ${body}, '{}'::jsonb, now())`
        )
        assert.deepStrictEqual([Exit.isFailure(neither), Exit.isFailure(both)], [true, true])
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { InboundEventStore, pageRequest } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0012 (inbound review)",
  (it) => {
    it.effect("keeps events stored before it (naming no team) and holds a discarded event to who and when", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(12))
        const parked = crypto.randomUUID()
        yield* sql`INSERT INTO inbound_events (id, endpoint, provider_event_id, type, payload, status, attempts,
                     next_attempt_at, last_error, received_at)
                   VALUES (${parked}, 'banking-a', 'evt_old', 'deposit.received', '{"id":"evt_old"}', 'parked', 8, now(),
                     'no team', now())`
        assert.deepStrictEqual(
          (yield* runMigrations(migrationsBefore(13))).map(([id]) => id),
          [12]
        )
        const store = yield* InboundEventStore
        const kept = Option.getOrThrow(yield* store.find(parked))
        assert.deepInclude(kept, { status: "parked", attempts: 8, teamId: null, discardedAt: null, discardedBy: null })
        const listed = yield* store.list({ status: "parked" }, yield* pageRequest(undefined, 10))
        assert.deepStrictEqual(
          listed.map((e) => e.id),
          [parked]
        )
        const unattributed = yield* Effect.flip(
          sql`UPDATE inbound_events SET status = 'discarded' WHERE id = ${parked}`
        )
        assert.strictEqual(unattributed._tag, "SqlError", "a discarded event names who discarded it and when")
        const unknownStatus = yield* Effect.flip(sql`UPDATE inbound_events SET status = 'lost' WHERE id = ${parked}`)
        assert.strictEqual(unknownStatus._tag, "SqlError")
      })
    )
  }
)

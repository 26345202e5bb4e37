import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ledgerAccountsContract } from "./LedgerAccountsContract.ts"

/** Returns once a statement of this database waits on a lock; at once on the embedded server, whose single connection serialises transactions. */
const untilLockWait = Effect.gen(function* () {
  const { embedded } = yield* TestDatabaseUrl
  if (embedded) return
  const sql = yield* SqlClient.SqlClient
  yield* sql<{ waiting: boolean }>`
    SELECT count(*) > 0 AS waiting FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.pipe(
    Effect.repeat({ until: (rows) => rows[0]?.waiting === true }),
    Effect.orDie
  )
})

ledgerAccountsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)), untilLockWait)

import { assert, describe, layer } from "@effect/vitest"
import { IdempotencyStorePg, TransactorPg } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { IdempotencyStore, isPersistenceUnavailable, type TeamId, Transactor } from "@svc/domain"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** A unit of work whose connection the database drops before the unit fails on its own. */
const droppedThenFailed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* Effect.ignore(sql`SELECT pg_terminate_backend(pg_backend_pid())`)
  return yield* Effect.fail("the unit's own failure" as const)
})

const assertUnavailable = (exit: Exit.Exit<unknown, unknown>) => {
  assert.isTrue(Exit.isFailure(exit))
  if (Exit.isFailure(exit)) {
    assert.isFalse(Cause.hasDies(exit.cause), String(Cause.pretty(exit.cause)))
    const error = Cause.findErrorOption(exit.cause)
    assert.isTrue(error._tag === "Some" && isPersistenceUnavailable(error.value), String(Cause.pretty(exit.cause)))
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "a transaction whose connection the database drops (needs real Postgres: set DATABASE_URL)",
  () => {
    layer(Layer.mergeAll(TransactorPg, IdempotencyStorePg).pipe(Layer.provideMerge(EmptyTestDatabase)))(
      "the ROLLBACK cannot be sent: PersistenceUnavailable (a 503), never a defect (a 500)",
      (it) => {
        it.effect("TransactorPg.withTransaction", () =>
          Effect.gen(function* () {
            const transactor = yield* Transactor
            assertUnavailable(yield* Effect.exit(transactor.withTransaction(droppedThenFailed)))
            const sql = yield* SqlClient.SqlClient
            assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }], "the pool recovers")
          })
        )

        it.effect("IdempotencyStorePg.exclusive", () =>
          Effect.gen(function* () {
            const store = yield* IdempotencyStore
            const scope = {
              teamId: crypto.randomUUID() as TeamId,
              mode: "test" as const,
              credentialId: "key",
              method: "POST",
              path: "/v1/spend-requests",
              key: crypto.randomUUID()
            }
            assertUnavailable(yield* Effect.exit(store.exclusive(scope, droppedThenFailed)))
          })
        )
      }
    )
  }
)

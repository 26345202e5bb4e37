import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { domainOver, fundedAgent, spend } from "./SpendSetup.ts"

const pg = PortsPg.pipe(Layer.provideMerge(TestDatabase))

/** Until a backend of this database waits for a lock (the request queued behind the writer's row lock). */
const untilOneWaitsForALock = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (let attempt = 0; attempt < 5_000; attempt++) {
    const [row] = yield* sql<{ readonly waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`
    if ((row?.waiting ?? 0) > 0) return
    yield* Effect.yieldNow
  }
  return yield* Effect.die(new Error("the request never waited for the account's lock"))
})

layer(Layer.merge(domainOver(pg), pg), { timeout: "60 seconds" })(
  "spend decisions read governance after their locks (Postgres)",
  (it) => {
    it.effect("a request that waited for its account's lock sees a freeze committed meanwhile, and is denied", () =>
      Effect.gen(function* () {
        const { team, agent, key, approver } = yield* fundedAgent({ funds: 10_000 })
        const sql = yield* SqlClient.SqlClient
        const freeze = sql`INSERT INTO spend_freezes (id, team_id, reason, frozen_by, frozen_at)
                           VALUES (${crypto.randomUUID()}, ${team.id}, 'incident', ${approver.userId}, now())`
        const decided = (yield* TestDatabaseUrl).embedded
          ? // The embedded database runs one transaction at a time: no request can wait behind another's lock.
            yield* Effect.andThen(freeze, spend(agent, 100))
          : yield* Effect.gen(function* () {
              const locked = yield* Deferred.make<void>()
              const release = yield* Deferred.make<void>()
              // Another writer holds the spend account's row lock and freezes the team in the same transaction.
              const writer = yield* sql
                .withTransaction(
                  Effect.gen(function* () {
                    yield* sql`SELECT 1 FROM ledger_accounts WHERE id = ${key.accountId} FOR UPDATE`
                    yield* Deferred.succeed(locked, undefined)
                    yield* Deferred.await(release)
                    yield* freeze
                  })
                )
                .pipe(Effect.forkChild)
              yield* Deferred.await(locked)
              const asked = yield* spend(agent, 100).pipe(Effect.forkChild)
              yield* untilOneWaitsForALock
              yield* Deferred.succeed(release, undefined)
              yield* Fiber.join(writer)
              return yield* Fiber.join(asked)
            })
        assert.strictEqual(decided.status, "denied")
        assert.deepStrictEqual(
          decided.decision.reasons.map((r) => r.code),
          ["spending_frozen"]
        )
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { IdempotencyStorePg, TeamsRepoPg, TransactorPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import {
  type IdempotencyScope,
  IdempotencyStore,
  isPersistenceUnavailable,
  type StoredResponse,
  type TeamId,
  TeamsRepo,
  Transactor
} from "@svc/domain"
import { Cause, Data, Deferred, Effect, Exit, Layer, Option, Ref } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A trigger of this test's own database that refuses the first `times` answers stored from now on with SQLSTATE
 * `sqlstate`, counting refusals in a sequence (which a rollback does not undo).
 */
const REFUSALS = [
  "CREATE TABLE refusal_plan (sqlstate text NOT NULL, times int NOT NULL)",
  "INSERT INTO refusal_plan VALUES ('00000', 0)",
  "CREATE SEQUENCE refusals",
  `CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE plan refusal_plan;
   BEGIN
     SELECT * INTO plan FROM refusal_plan;
     IF plan.times > 0 AND nextval('refusals') <= plan.times THEN
       RAISE EXCEPTION 'refused by the test' USING ERRCODE = plan.sqlstate;
     END IF;
     RETURN NEW;
   END $$`,
  "CREATE TRIGGER refuse_answer BEFORE INSERT ON idempotency_responses FOR EACH ROW EXECUTE FUNCTION refuse_answer()"
]

const refuse = (sqlstate: string, times: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if ((yield* sql`SELECT to_regclass('refusal_plan') IS NOT NULL AS ready`)[0]?.ready !== true) {
      yield* Effect.forEach(REFUSALS, (statement) => sql.unsafe(statement))
    }
    yield* sql`UPDATE refusal_plan SET sqlstate = ${sqlstate}, times = ${times}`
    yield* sql`SELECT setval('refusals', 1, false)`
  })

const scope = (): IdempotencyScope => ({
  teamId: crypto.randomUUID() as TeamId,
  mode: "test",
  credentialId: "key",
  method: "POST",
  path: "/v1/transfers",
  key: crypto.randomUUID()
})

const answer: StoredResponse = {
  fingerprint: "f",
  status: 201,
  headers: {},
  body: new Uint8Array([123, 125]),
  createdAt: "2026-01-01T00:00:00.000Z"
}

/** Stores the answer of `s`, counting the runs in `runs`: a unit of work whose one write may lose a conflict. */
const saveCounted = (runs: Ref.Ref<number>, s: IdempotencyScope) =>
  Effect.andThen(
    Ref.update(runs, (n) => n + 1),
    IdempotencyStore.use((store) => store.save(s, answer))
  )

const stored = (s: IdempotencyScope) => IdempotencyStore.use((store) => store.find(s)).pipe(Effect.map(Option.isSome))

const assertUnavailable = (exit: Exit.Exit<unknown, unknown>) => {
  assert.isTrue(Exit.isFailure(exit))
  if (Exit.isFailure(exit)) {
    const error = Cause.findErrorOption(exit.cause)
    assert.isTrue(Option.isSome(error) && isPersistenceUnavailable(error.value), String(Cause.pretty(exit.cause)))
  }
}

/** The 503 an HTTP handler makes of PersistenceUnavailable inside the idempotency transaction. */
class Answered503 extends Data.TaggedError("Answered503")<{}> {}

layer(Layer.mergeAll(TransactorPg, IdempotencyStorePg, TeamsRepoPg).pipe(Layer.provideMerge(TestDatabase)), {
  timeout: "60 seconds",
  // The pause before a run again is on the clock: the real one.
  excludeTestServices: true
})("a Postgres transaction that loses a lock conflict runs again, at most three times in all", (it) => {
  it.effect("a serialization failure twice: the whole unit runs three times and commits once", () =>
    Effect.gen(function* () {
      yield* refuse("40001", 2)
      const runs = yield* Ref.make(0)
      const s = scope()
      const transactor = yield* Transactor
      assert.isTrue(yield* transactor.withTransaction(saveCounted(runs, s)))
      assert.strictEqual(yield* Ref.get(runs), 3)
      assert.isTrue(yield* stored(s))
    })
  )

  it.effect("what the unit leaves for after the commit runs once, for the run that committed", () =>
    Effect.gen(function* () {
      yield* refuse("40001", 2)
      const [runs, counted] = [yield* Ref.make(0), yield* Ref.make(0)]
      const transactor = yield* Transactor
      yield* transactor.withTransaction(
        Effect.andThen(transactor.afterCommit(Ref.update(counted, (n) => n + 1)), saveCounted(runs, scope()))
      )
      assert.deepStrictEqual([yield* Ref.get(runs), yield* Ref.get(counted)], [3, 1])
    })
  )

  it.effect("a deadlock every time: three runs, then PersistenceUnavailable, and nothing written", () =>
    Effect.gen(function* () {
      yield* refuse("40P01", 100)
      const runs = yield* Ref.make(0)
      const s = scope()
      const transactor = yield* Transactor
      assertUnavailable(yield* Effect.exit(transactor.withTransaction(saveCounted(runs, s))))
      assert.strictEqual(yield* Ref.get(runs), 3)
      assert.isFalse(yield* stored(s))
    })
  )

  it.effect("any other failure (a check violation) runs once", () =>
    Effect.gen(function* () {
      yield* refuse("23514", 100)
      const runs = yield* Ref.make(0)
      const transactor = yield* Transactor
      assertUnavailable(yield* Effect.exit(transactor.withTransaction(saveCounted(runs, scope()))))
      assert.strictEqual(yield* Ref.get(runs), 1)
    })
  )

  it.effect(
    "a unit that makes its own error of the loss, as a handler's 503 in an idempotency transaction, still runs again",
    () =>
      Effect.gen(function* () {
        yield* refuse("40P01", 1)
        const runs = yield* Ref.make(0)
        const s = scope()
        const store = yield* IdempotencyStore
        const handler = saveCounted(runs, s).pipe(Effect.catchTag("PersistenceUnavailable", () => new Answered503()))
        assert.deepStrictEqual(yield* store.exclusive(scope(), handler), Option.some(true))
        assert.strictEqual(yield* Ref.get(runs), 2)
        assert.isTrue(yield* stored(s))
      })
  )

  it.effect("a nested transaction joins the outermost, which runs again as a whole", () =>
    Effect.gen(function* () {
      yield* refuse("40001", 1)
      const [outer, inner] = [yield* Ref.make(0), yield* Ref.make(0)]
      const s = scope()
      const transactor = yield* Transactor
      const unit = Effect.andThen(
        Ref.update(outer, (n) => n + 1),
        transactor.withTransaction(saveCounted(inner, s))
      )
      assert.isTrue(yield* transactor.withTransaction(unit))
      assert.deepStrictEqual([yield* Ref.get(outer), yield* Ref.get(inner)], [2, 2])
    })
  )

  it.effect.skipIf(process.env.DATABASE_URL === undefined)(
    "two transactions locking two teams in opposite orders (a real deadlock; needs Postgres): both commit, one ran twice",
    () =>
      Effect.gen(function* () {
        yield* refuse("00000", 0)
        const sql = yield* SqlClient.SqlClient
        const [a, b] = [crypto.randomUUID() as TeamId, crypto.randomUUID() as TeamId]
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at)
          VALUES (${a}, 'A', 'USD', now()), (${b}, 'B', 'USD', now())`
        const teams = yield* TeamsRepo
        const transactor = yield* Transactor
        const firstLocks = [yield* Deferred.make<void>(), yield* Deferred.make<void>()] as const
        const runs = yield* Ref.make(0)
        /** Locks `first`, then (on its first run, once the other holds its first lock) `second`, and stores an answer. */
        const crossing = (
          first: TeamId,
          second: TeamId,
          mine: Deferred.Deferred<void>,
          theirs: Deferred.Deferred<void>
        ) =>
          transactor.withTransaction(
            Effect.gen(function* () {
              const run = yield* Ref.updateAndGet(runs, (n) => n + 1)
              yield* teams.lockTeam(first)
              if (!(yield* Deferred.isDone(mine))) {
                yield* Deferred.succeed(mine, undefined)
                yield* Deferred.await(theirs)
              }
              yield* teams.lockTeam(second)
              return yield* IdempotencyStore.use((store) => store.save(scope(), answer)).pipe(Effect.as(run))
            })
          )
        const both = yield* Effect.all(
          [crossing(a, b, firstLocks[0], firstLocks[1]), crossing(b, a, firstLocks[1], firstLocks[0])],
          { concurrency: 2 }
        )
        assert.strictEqual(both.length, 2)
        assert.strictEqual(yield* Ref.get(runs), 3, "the deadlock's victim ran once more")
      })
  )
})

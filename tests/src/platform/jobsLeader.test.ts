import { assert, describe, it, layer } from "@effect/vitest"
import { JOBS_LEADER_LOCK, JobsFencePg } from "@svc/adapters-pg"
import { EmptyTestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { contendForJobs, JobsLeadership, JobsLeadershipLive, jobsLeaderConfig } from "@svc/api"
import { JobsFence } from "@svc/domain"
import { ConfigProvider, Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Redacted, Ref, Scope } from "effect"
import { SqlClient } from "effect/sql"

const RETRY = Duration.millis(300)
const CHECK = Duration.millis(200)

/** Polls `condition` every 50 ms; fails the test with `what` if it does not hold within `within`. */
const eventually = (what: string, within: Duration.Duration, condition: Effect.Effect<boolean>) =>
  Effect.gen(function* () {
    const deadline = Date.now() + Duration.toMillis(within)
    while (!(yield* condition)) {
      if (Date.now() > deadline) return assert.fail(`${what} within ${Duration.format(within)}`)
      yield* Effect.sleep("50 millis")
    }
  })

/** A contender with a job that marks itself running while it runs (and not once interrupted). */
const contender = (url: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const leadership = yield* contendForJobs({ url: Redacted.make(url), retry: RETRY, check: CHECK }).pipe(
      Scope.provide(scope)
    )
    const running = yield* Ref.make(false)
    const terms = yield* Ref.make(0)
    const job = Effect.andThen(
      Effect.andThen(
        Ref.set(running, true),
        Ref.update(terms, (n) => n + 1)
      ),
      Effect.never
    ).pipe(Effect.ensuring(Ref.set(running, false)))
    yield* Effect.forkIn(leadership.whileLeading(job), scope)
    return {
      leading: leadership.leading,
      lockBackendPid: leadership.lockBackendPid,
      running: Ref.get(running),
      terms: Ref.get(terms),
      stop: Scope.close(scope, Exit.void)
    }
  })

/** The backend pids holding the leader lock on the test database. */
const lockHolders = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ pid: number }>`
    SELECT pid FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid = ${JOBS_LEADER_LOCK.classid} AND objid = ${JOBS_LEADER_LOCK.objid} AND objsubid = 2`
  return rows.map((row) => row.pid)
})

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "the background-jobs leader lock (needs real Postgres: set DATABASE_URL)",
  () => {
    layer(EmptyTestDatabase, { excludeTestServices: true })("two contenders on one database", (it) => {
      it.effect(
        "exactly one leads and runs the jobs; when its lock connection is terminated it stops them and the other leads",
        () =>
          Effect.gen(function* () {
            const { url } = yield* TestDatabaseUrl
            const a = yield* contender(url)
            const b = yield* contender(url)
            const leaders = Effect.map(Effect.all([a.leading, b.leading]), (both) => both.filter(Boolean).length)
            const runners = Effect.map(Effect.all([a.running, b.running]), (both) => both.filter(Boolean).length)

            yield* eventually(
              "one contender leads",
              Duration.seconds(3),
              Effect.map(leaders, (n) => n === 1)
            )
            yield* eventually(
              "the leader's job runs",
              Duration.seconds(1),
              Effect.map(runners, (n) => n === 1)
            )
            // Several retry intervals later, still exactly one.
            yield* Effect.sleep(Duration.times(RETRY, 3))
            assert.strictEqual(yield* leaders, 1)
            assert.strictEqual(yield* runners, 1)
            const [first, second] = (yield* a.leading) ? [a, b] : [b, a]
            assert.isTrue(yield* first.running)
            assert.isFalse(yield* second.running)
            const holders = yield* lockHolders
            assert.strictEqual(holders.length, 1, "one backend holds the lock")

            const sql = yield* SqlClient.SqlClient
            yield* sql`SELECT pg_terminate_backend(${holders[0] ?? 0})`
            // The old leader notices within a check and its timeout; the other takes over within a retry.
            const bound = Duration.sum(Duration.sum(CHECK, CHECK), Duration.sum(RETRY, Duration.millis(700)))
            yield* eventually(
              "the old leader stops its job",
              bound,
              Effect.map(Effect.all([first.leading, first.running]), ([leads, runs]) => !leads && !runs)
            )
            yield* eventually(
              "the other contender leads and runs the job",
              bound,
              Effect.map(Effect.all([second.leading, second.running]), ([leads, runs]) => leads && runs)
            )
            yield* Effect.sleep(Duration.times(RETRY, 3))
            assert.strictEqual(yield* leaders, 1, "the old leader contends again, and loses")
            assert.strictEqual(yield* runners, 1)
            assert.strictEqual(yield* first.terms, 1)
            assert.strictEqual(yield* second.terms, 1)
            const [newHolder] = yield* lockHolders
            assert.notStrictEqual(newHolder, holders[0])

            // The leader ending (its process stopping) frees the lock at once: the other takes the jobs back.
            yield* second.stop
            yield* eventually(
              "the first leader leads again once the second is gone",
              Duration.sum(RETRY, Duration.millis(700)),
              Effect.map(Effect.all([first.leading, first.running]), ([leads, runs]) => leads && runs)
            )
            assert.strictEqual(yield* first.terms, 2, "a new term starts the jobs afresh")
            yield* first.stop
            assert.deepStrictEqual(yield* lockHolders, [], "a closed contender holds no lock")
          }),
        20_000
      )

      it.effect(
        "the fence: a new leader starts its jobs only after the old leader's fenced transactions end, and then fences them out",
        () =>
          Effect.gen(function* () {
            const { url } = yield* TestDatabaseUrl
            const sql = yield* SqlClient.SqlClient
            const a = yield* contender(url)
            yield* eventually("the first contender leads", Duration.seconds(3), a.leading)
            const fence = Context.get(yield* Layer.build(JobsFencePg(a.lockBackendPid)), JobsFence)
            assert.isTrue(yield* sql.withTransaction(fence.stillLeading), "the leader passes its own fence")
            const b = yield* contender(url)

            // A transaction of the old leader passed the fence and is still open when its lock connection dies.
            const passed = yield* Deferred.make<boolean>()
            const finish = yield* Deferred.make<void>()
            const open = yield* Effect.forkChild(
              sql.withTransaction(
                Effect.andThen(
                  Effect.flatMap(fence.stillLeading, (ok) => Deferred.succeed(passed, ok)),
                  Deferred.await(finish)
                )
              )
            )
            assert.isTrue(yield* Deferred.await(passed))
            const [holder] = yield* lockHolders
            yield* sql`SELECT pg_terminate_backend(${holder ?? 0})`
            yield* eventually(
              "the other contender takes the lock",
              Duration.sum(RETRY, Duration.seconds(1)),
              Effect.map(lockHolders, (pids) => pids.length === 1 && pids[0] !== holder).pipe(
                Effect.provideService(SqlClient.SqlClient, sql),
                Effect.orDie
              )
            )
            yield* Effect.sleep(Duration.times(RETRY, 2))
            assert.isFalse(yield* b.leading, "no jobs while the old leader's fenced transaction is open")
            assert.isFalse(yield* b.running)

            yield* Deferred.succeed(finish, undefined)
            yield* Fiber.join(open)
            yield* eventually("the new leader starts once it ended", Duration.seconds(1), b.running)
            assert.isFalse(yield* sql.withTransaction(fence.stillLeading), "the old leader is fenced out")
            yield* b.stop
            yield* a.stop
          }),
        20_000
      )

      it.effect("with BACKGROUND_JOBS=off a process never contends, even with nobody leading", () =>
        Effect.gen(function* () {
          const { url } = yield* TestDatabaseUrl
          const leadership = yield* Effect.scoped(
            Effect.gen(function* () {
              const leadership = Context.get(yield* Layer.build(JobsLeadershipLive), JobsLeadership)
              yield* Effect.sleep(Duration.times(RETRY, 3))
              assert.deepStrictEqual(yield* lockHolders, [])
              return yield* leadership.leading
            }).pipe(
              Effect.provide(
                ConfigProvider.layer(
                  ConfigProvider.fromUnknown({
                    DATABASE_URL: url,
                    BACKGROUND_JOBS: "off",
                    BACKGROUND_JOBS_LEADER_RETRY_MS: String(Duration.toMillis(RETRY))
                  })
                )
              )
            )
          )
          assert.isFalse(leadership)
        })
      )
    })
  }
)

const settings = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    Effect.gen(function* () {
      return yield* jobsLeaderConfig
    }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))
  )

const SERVER = "postgres://svc@db.internal:5432/svc"
const POOLER = "postgres://svc@pgbouncer.internal:6432/svc"

describe("the background-jobs leader settings", () => {
  it("contend on DATABASE_URL by default, retrying every 5 s and checking every 2 s", async () => {
    const exit = await settings({ DATABASE_URL: SERVER })
    assert.isTrue(Exit.isSuccess(exit))
    if (Exit.isSuccess(exit) && exit.value.mode === "contend") {
      assert.strictEqual(Redacted.value(exit.value.url), SERVER)
      assert.strictEqual(exit.value.retryMs, 5_000)
      assert.strictEqual(exit.value.checkMs, 2_000)
    } else assert.fail(String(exit))
  })

  it("contend on DATABASE_DIRECT_URL behind a transaction pooler", async () => {
    const exit = await settings({
      DATABASE_URL: POOLER,
      DATABASE_POOLER: "transaction",
      DATABASE_DIRECT_URL: SERVER,
      BACKGROUND_JOBS_LEADER_RETRY_MS: "1000",
      BACKGROUND_JOBS_LEADER_CHECK_MS: "500"
    })
    if (Exit.isSuccess(exit) && exit.value.mode === "contend") {
      assert.strictEqual(Redacted.value(exit.value.url), SERVER)
      assert.strictEqual(exit.value.retryMs, 1_000)
      assert.strictEqual(exit.value.checkMs, 500)
    } else assert.fail(String(exit))
  })

  it("refuse a transaction pooler without DATABASE_DIRECT_URL while the jobs are on, naming it", async () => {
    const exit = await settings({ DATABASE_URL: POOLER, DATABASE_POOLER: "transaction" })
    assert.isTrue(Exit.isFailure(exit))
    assert.include(String(exit), "DATABASE_DIRECT_URL is required with DATABASE_POOLER=transaction")
  })

  it("need no direct URL behind a pooler with BACKGROUND_JOBS=off: that process never contends", async () => {
    const exit = await settings({ DATABASE_URL: POOLER, DATABASE_POOLER: "transaction", BACKGROUND_JOBS: "off" })
    assert.deepStrictEqual(Exit.isSuccess(exit) && exit.value, { mode: "off" })
  })

  it("lead alone on the embedded database, and refuse a direct URL there", async () => {
    const alone = await settings({})
    assert.deepStrictEqual(Exit.isSuccess(alone) && alone.value, { mode: "alone" })
    const refused = await settings({ DATABASE_DIRECT_URL: SERVER })
    assert.isTrue(Exit.isFailure(refused))
    assert.include(String(refused), "DATABASE_DIRECT_URL needs DATABASE_URL")
  })

  it.each(["0", "soon", "600001"])(
    "refuse BACKGROUND_JOBS_LEADER_RETRY_MS=%j and _CHECK_MS, naming them",
    async (value) => {
      for (const name of ["BACKGROUND_JOBS_LEADER_RETRY_MS", "BACKGROUND_JOBS_LEADER_CHECK_MS"]) {
        const exit = await settings({ DATABASE_URL: SERVER, [name]: value })
        assert.isTrue(Exit.isFailure(exit))
        assert.include(String(exit), name)
      }
    }
  )
})

import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { clientForUrl } from "@svc/adapters-pg"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { clientOf, testConfig } from "../support/InProcessApp.ts"
import { assertLimited, serve, spendingKey } from "../support/RateLimitHarness.ts"

const realPostgres = process.env.DATABASE_URL !== undefined
const LIMIT = 4
const env = { RATE_LIMIT_V1_PER_MINUTE: String(LIMIT) }

const scope = Effect.runSync(Scope.make())
const instances: Array<{ readonly dispose: () => Promise<void> }> = []
let a: ReturnType<typeof clientOf>
let b: ReturnType<typeof clientOf>
let bucketRows: () => Promise<number>

beforeAll(async () => {
  const database = await Effect.runPromise(Layer.build(TestDatabase).pipe(Scope.provide(scope)))
  const { url, pooler } = Context.get(database, TestDatabaseUrl)
  const sql = Context.get(database, SqlClient.SqlClient)
  bucketRows = () =>
    Effect.runPromise(
      sql<{ n: string }>`SELECT count(*)::text AS n FROM rate_limit_buckets`.pipe(Effect.map(([row]) => Number(row?.n)))
    )
  const onDatabase = () =>
    realPostgres
      ? appOnPostgres(testConfig).pipe(Layer.provide(clientForUrl(Redacted.make(url), 2, pooler)))
      : appOnPostgres(testConfig).pipe(Layer.provide(Layer.succeedContext(database)))
  const first = serve(onDatabase(), env)
  const second = serve(onDatabase(), env)
  instances.push(first, second)
  a = clientOf(first.handler)
  b = clientOf(second.handler)
})

afterAll(async () => {
  for (const instance of instances) await instance.dispose()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const label = realPostgres ? "two pools on one real Postgres database" : "one embedded PGlite database"

describe(`/v1 rate limit shared by two app instances (${label})`, () => {
  it("one key's requests through either instance draw from one bucket", async () => {
    const token = await spendingKey(a)
    const answers = []
    for (let i = 0; i < LIMIT; i++) answers.push(await (i % 2 === 0 ? a : b).call("GET", "/v1/accounts", { token }))
    answers.forEach((answer, i) => {
      assert.strictEqual(answer.status, 200)
      assertLimited(answer, LIMIT, LIMIT - 1 - i)
    })
    for (const instance of [a, b]) {
      const refused = await instance.call("GET", "/v1/accounts", { token })
      assert.strictEqual(refused.status, 429)
      assert.strictEqual(refused.body.error, "rate_limited")
      assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
    }
  })

  it("concurrent requests through both instances never exceed the limit", async () => {
    const token = await spendingKey(b)
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).call("GET", "/v1/balance", { token }))
    )
    assert.strictEqual(answers.filter((x) => x.status === 200).length, LIMIT)
    assert.strictEqual(answers.filter((x) => x.status === 429).length, 12 - LIMIT)
    for (const answer of answers) assert.strictEqual(Number(answer.headers.get("ratelimit-limit")), LIMIT)
  })

  it("unknown credentials write no bucket rows and run out per client address", async () => {
    const before = await bucketRows()
    const answers = []
    for (let i = 0; i < 50; i++) {
      answers.push(await a.call("GET", "/v1/accounts", { token: `svc_test_${crypto.randomUUID()}` }))
    }
    assert.strictEqual(await bucketRows(), before, "no row for a credential that resolves to no key")
    assert.strictEqual(answers.filter((x) => x.status === 401).length, LIMIT)
    assert.strictEqual(answers.filter((x) => x.status === 429).length, 50 - LIMIT)
    const token = await spendingKey(a)
    assert.strictEqual((await a.call("GET", "/v1/accounts", { token })).status, 200)
    assert.strictEqual(await bucketRows(), before + 1, "a real key gets its own bucket")
  })
})

import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ledgerViolations } from "../faults/SpendLoad.ts"
import { appOnThisDatabase } from "../support/InProcessApp.ts"
import { createSpend, setUpAcme, spendBody } from "./SpendHttpSetup.ts"

const database = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"
const POISON = "poison"

/** A trigger of this test's own database that refuses poisoned spend requests, counting its refusals in a sequence. */
const installPoison = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    yield* sql.unsafe("CREATE SEQUENCE poison_refusals")
    yield* sql.unsafe(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM nextval('poison_refusals');
        RAISE EXCEPTION 'poisoned spend request %', NEW.id;
      END $$`)
    yield* sql.unsafe(`CREATE TRIGGER refuse_poison BEFORE INSERT ON spend_requests FOR EACH ROW
      WHEN (NEW.purpose = '${POISON}') EXECUTE FUNCTION refuse_poison()`)
  })

const refusals = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{
      readonly n: string
    }>`SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS n FROM poison_refusals`,
    (rows) => Number(rows[0]?.n)
  )

layer(TestDatabase, { timeout: "120 seconds" })(`a database error inside a spend batch (${database})`, (it) => {
  it.effect(
    "fails its own request alone (503, the contract's body), its neighbours are approved, and its retry runs once",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const app = yield* appOnThisDatabase
        const acme = yield* Effect.promise(() => setUpAcme(app))
        yield* installPoison(sql)

        const sends = Array.from({ length: 12 }, (_, i) => ({
          key: crypto.randomUUID(),
          body: spendBody(1_000, i === 6 ? { purpose: POISON } : {})
        }))
        const answers = yield* Effect.promise(() =>
          Promise.all(sends.map(({ key, body }) => createSpend(app, acme.testKey, body, key)))
        )
        const poisoned = answers[6]!
        const neighbours = answers.filter((a) => a !== poisoned)
        assert.deepStrictEqual(
          neighbours.map((a) => [a.status, a.body.status]),
          neighbours.map(() => [201, "approved"])
        )
        assert.strictEqual(poisoned.status, 503)
        assert.deepStrictEqual(Object.keys(poisoned.body).toSorted(), ["code", "error", "message"])
        assert.strictEqual(poisoned.body.error, "service_unavailable")
        assert.strictEqual(poisoned.body.code, 503)
        assert.notMatch(JSON.stringify(poisoned.body), /poison|SqlError|exception|trigger|spend_requests|stack/iu)
        assert.strictEqual(yield* refusals(sql), 2, "refused once in a shared batch, then once alone")

        const stored = (purpose: string) =>
          sql<{ readonly id: string }>`SELECT id FROM spend_requests WHERE team_id IN
            (SELECT team_id FROM spend_requests WHERE id = ${neighbours[0]!.body.id}) AND purpose = ${purpose}`
        assert.deepStrictEqual(yield* stored(POISON), [])
        assert.deepStrictEqual(
          (yield* stored(spendBody(0).purpose)).map((r) => r.id).toSorted(),
          neighbours.map((a) => a.body.id as string).toSorted()
        )
        const balance = () => Effect.promise(() => app.call("GET", "/v1/balance", { token: acme.testKey }))
        assert.deepStrictEqual(
          [(yield* balance()).body.posted, (yield* balance()).body.available],
          [20_000 - 11_000, 20_000 - 11_000]
        )

        yield* sql.unsafe("DROP TRIGGER refuse_poison ON spend_requests")
        const { key, body } = sends[6]!
        const retry = yield* Effect.promise(() => createSpend(app, acme.testKey, body, key))
        assert.strictEqual(retry.status, 201)
        assert.strictEqual(retry.body.status, "approved")
        assert.isNull(retry.headers.get("idempotent-replayed"))
        const replay = yield* Effect.promise(() => createSpend(app, acme.testKey, body, key))
        assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
        assert.deepStrictEqual(replay.body, retry.body)
        assert.deepStrictEqual(
          (yield* stored(POISON)).map((r) => r.id),
          [retry.body.id]
        )
        const movements = yield* sql<{ readonly kind: string }>`
          SELECT kind FROM ledger_transactions WHERE code = 'spend_request' AND reference = ${retry.body.id}`
        assert.deepStrictEqual(
          movements.map((m) => m.kind),
          ["posted"]
        )
        assert.strictEqual((yield* balance()).body.available, 20_000 - 12_000)
        assert.deepStrictEqual(yield* ledgerViolations(sql), [])
      })
  )
})

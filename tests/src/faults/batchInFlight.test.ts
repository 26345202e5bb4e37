import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { apiProcesses } from "../support/ApiProcess.ts"
import { ledgerViolations, type Reply, sendSpend, spender, withSql } from "./SpendLoad.ts"

const AGENTS = 4
const PER_AGENT = 5
const AMOUNT = 1_000
const FUNDS = 100_000
const ENV = { RATE_LIMIT_V1_PER_MINUTE: "100000" }

/**
 * Holds every statement that inserts spend requests for 5 seconds before it can commit, after counting it in
 * `held_batches` and noting how many requests it carried in `held_batch_size` (sequences survive a rollback).
 */
const HOLD = [
  "CREATE SEQUENCE held_batches",
  "CREATE SEQUENCE held_batch_size",
  `CREATE FUNCTION hold_spend_batch() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM setval('held_batch_size', (SELECT count(*) FROM inserted));
     PERFORM nextval('held_batches');
     PERFORM pg_sleep(5);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER hold_spend_batch AFTER INSERT ON spend_requests REFERENCING NEW TABLE AS inserted
   FOR EACH STATEMENT EXECUTE FUNCTION hold_spend_batch()`
]

const counter = (sql: SqlClient.SqlClient, sequence: "held_batches" | "held_batch_size") =>
  Effect.map(
    sql<{ readonly n: string }>`SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS n
      FROM ${sql(sequence)}`,
    (rows) => Number(rows[0]?.n)
  )

/** Resolves once `held` batches have been held and one of them is asleep in its insert right now. */
const untilHeld = async (url: string, held: number) => {
  for (;;) {
    const [batches, sleeping] = await withSql(url, (sql) =>
      Effect.all([
        counter(sql, "held_batches"),
        Effect.map(
          sql<{ readonly n: string }>`SELECT COUNT(*)::text AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event = 'PgSleep'`,
          (rows) => Number(rows[0]?.n)
        )
      ])
    )
    if (batches === held && sleeping > 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "kill -9 with a spend batch in flight (needs real Postgres: set DATABASE_URL)",
  () => {
    const processes = apiProcesses()

    it("a batch cut off before its commit leaves nothing; each retry with its key runs once and answers 201", async () => {
      const url = processes.env().DATABASE_URL as string
      const first = await processes.start(ENV)
      const agents: Array<Awaited<ReturnType<typeof spender>>> = []
      for (let i = 0; i < AGENTS; i++) agents.push(await spender(first.baseUrl, {}, FUNDS))
      const sends = agents.flatMap((agent) =>
        Array.from({ length: PER_AGENT }, (_, i) => ({ agent, key: `in-flight-${i}-${crypto.randomUUID()}` }))
      )
      const send = (baseUrl: string, { agent, key }: (typeof sends)[number]) =>
        sendSpend(baseUrl, agent.secret, key, AMOUNT, 30_000)
      await withSql(url, (sql) => Effect.forEach(HOLD, (statement) => sql.unsafe(statement)))

      const [lead, ...rest] = sends
      if (lead === undefined) throw new Error("no sends")
      const leadReply = send(first.baseUrl, lead)
      await untilHeld(url, 1)
      const cut = Promise.all(rest.map((s) => send(first.baseUrl, s)))
      await untilHeld(url, 2)
      first.child.kill("SIGKILL")
      assert.deepStrictEqual(await first.exited, { code: null, signal: "SIGKILL" })
      const leadAnswer: Reply = await leadReply
      assert.strictEqual(leadAnswer.status, 201, "the batch held before the one in flight committed and answered")
      assert.deepStrictEqual(
        (await cut).map((r) => r.status),
        rest.map(() => 0),
        "every request of the batch in flight was cut off"
      )

      const inFlight = await withSql(url, (sql) =>
        Effect.gen(function* () {
          const size = yield* counter(sql, "held_batch_size")
          yield* sql.unsafe("DROP TRIGGER hold_spend_batch ON spend_requests")
          const rows = yield* sql<{ readonly n: string }>`SELECT COUNT(*)::text AS n FROM spend_requests`
          return { size, rows: Number(rows[0]?.n) }
        })
      )
      assert.isAbove(inFlight.size, 1, "the batch in flight carried several requests")
      assert.strictEqual(inFlight.rows, 1, "nothing of the batch in flight was committed")

      const second = await processes.start(ENV)
      const retries = await Promise.all(sends.map((s) => send(second.baseUrl, s)))
      assert.deepStrictEqual(
        retries.map((r) => r.status),
        sends.map(() => 201)
      )
      assert.strictEqual(retries[0]?.headers.get("idempotent-replayed"), "true")
      assert.strictEqual(retries[0]?.text, leadAnswer.text, "the committed request replays its first answer")
      assert.deepStrictEqual(
        retries.slice(1).map((r) => r.headers.get("idempotent-replayed")),
        rest.map(() => null),
        "the cut-off requests run now"
      )
      const answers = retries.map((r) => JSON.parse(r.text) as { readonly id: string; readonly status: string })
      assert.isTrue(answers.every((a) => a.status === "approved"))

      const facts = await withSql(url, (sql) =>
        Effect.all({
          requests: sql<{ readonly id: string; readonly teamId: string; readonly purpose: string }>`
            SELECT id, team_id, purpose FROM spend_requests`,
          movements: sql<{ readonly reference: string; readonly kind: string }>`
            SELECT reference, kind FROM ledger_transactions WHERE code = 'spend_request'`,
          accounts: sql<{ readonly teamId: string; readonly postedSum: string; readonly pendingOut: string }>`
            SELECT team_id, posted_sum::text, pending_out::text FROM ledger_accounts
            WHERE kind = 'spend' AND mode = 'test'`,
          violations: ledgerViolations(sql)
        })
      )
      for (const agent of agents) {
        const mine = sends.flatMap((s, i) => (s.agent === agent ? [{ ...s, answer: answers[i] }] : []))
        const rows = facts.requests.filter((r) => r.teamId === agent.teamId)
        assert.deepStrictEqual(
          rows.map((r) => [r.purpose, r.id]).toSorted(),
          mine.map((s) => [`fault ${s.key}`, s.answer?.id]).toSorted(),
          `team ${agent.teamId}: one request per key, the one its retry answered`
        )
        assert.deepStrictEqual(
          facts.accounts.filter((a) => a.teamId === agent.teamId),
          [{ teamId: agent.teamId, postedSum: String(FUNDS - PER_AGENT * AMOUNT), pendingOut: "0" }]
        )
      }
      assert.deepStrictEqual(
        facts.movements.map((m) => [m.reference, m.kind]).toSorted(),
        answers.map((a) => [a.id, "posted"]).toSorted(),
        "one movement per request"
      )
      assert.deepStrictEqual(facts.violations, [])
    }, 180_000)
  }
)

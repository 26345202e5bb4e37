import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { apiProcesses } from "../support/ApiProcess.ts"
import { ledgerViolations, type Reply, send, spender, withSql } from "./SpendLoad.ts"

const TRANSFERS = 4
const AMOUNT = 1_500
const SENDER_FUNDS = 50_000
const RECIPIENT_FUNDS = 7_000
const ENV = { RATE_LIMIT_V1_PER_MINUTE: "100000" }

/** Holds every insert of a transfer for 3 seconds before it goes on, after counting it in `held_transfers`. */
const HOLD = [
  "CREATE SEQUENCE held_transfers",
  `CREATE FUNCTION hold_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM nextval('held_transfers');
     PERFORM pg_sleep(3);
     RETURN NEW;
   END $$`,
  "CREATE TRIGGER hold_transfer BEFORE INSERT ON transfers FOR EACH ROW EXECUTE FUNCTION hold_transfer()"
]

/** Resolves once `held` inserts of transfers have been held and one of them is asleep in its trigger right now. */
const untilHeld = async (url: string, held: number) => {
  for (;;) {
    const [inserts, sleeping] = await withSql(url, (sql) =>
      Effect.all([
        Effect.map(
          sql<{ readonly n: string }>`SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS n
            FROM held_transfers`,
          (rows) => Number(rows[0]?.n)
        ),
        Effect.map(
          sql<{ readonly n: string }>`SELECT COUNT(*)::text AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event = 'PgSleep'`,
          (rows) => Number(rows[0]?.n)
        )
      ])
    )
    if (inserts === held && sleeping > 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Resolves once no other session of the database is inside a statement or a transaction: the killed process's
 * sessions have all noticed they lost their client and rolled back, so none still holds an idempotency key's lock.
 */
const untilAlone = async (url: string) => {
  for (;;) {
    const others = await withSql(url, (sql) =>
      Effect.map(
        sql<{ readonly n: string }>`SELECT COUNT(*)::text AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`,
        (rows) => Number(rows[0]?.n)
      )
    )
    if (others === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** GET /v1/balance of `secret`'s account, as a client reads it. */
const balanceOf = async (baseUrl: string, secret: string) => {
  const reply = await send(baseUrl, "GET", "/v1/balance", { token: secret })
  assert.strictEqual(reply.status, 200, reply.text)
  const { posted, pending, available } = JSON.parse(reply.text) as Record<string, number>
  return { posted, pending, available }
}

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "kill -9 with a transfer in flight (needs real Postgres: set DATABASE_URL)",
  () => {
    const processes = apiProcesses()

    it("a transfer cut off before its commit leaves nothing; each retry with its key answers 201 and holds once", async () => {
      const url = processes.env().DATABASE_URL as string
      const first = await processes.start(ENV)
      const sender = await spender(first.baseUrl, {}, SENDER_FUNDS)
      const recipient = await spender(first.baseUrl, {}, RECIPIENT_FUNDS)
      const addressReply = await send(first.baseUrl, "GET", "/v1/transfers/receive-address", {
        token: recipient.secret
      })
      assert.strictEqual(addressReply.status, 200, addressReply.text)
      const to = { address: (JSON.parse(addressReply.text) as { readonly address: string }).address }
      const keys = Array.from({ length: TRANSFERS }, (_, i) => `transfer-in-flight-${i}-${crypto.randomUUID()}`)
      /** Posts the transfer of `key` with its fixed body: its memo names the key, so rows can be told apart. */
      const transfer = (baseUrl: string, key: string): Promise<Reply> =>
        send(baseUrl, "POST", "/v1/transfers", {
          token: sender.secret,
          body: JSON.stringify({ to, amount: AMOUNT, currency: "USD", memo: `fault ${key}` }),
          headers: { "idempotency-key": key },
          timeoutMs: 30_000
        })
      await withSql(url, (sql) => Effect.forEach(HOLD, (statement) => sql.unsafe(statement)))

      const [lead, ...rest] = keys
      if (lead === undefined) throw new Error("no transfers")
      const leadReply = transfer(first.baseUrl, lead)
      await untilHeld(url, 1)
      const cut = Promise.all(rest.map((key) => transfer(first.baseUrl, key)))
      await untilHeld(url, 2)
      first.child.kill("SIGKILL")
      assert.deepStrictEqual(await first.exited, { code: null, signal: "SIGKILL" })
      const leadAnswer = await leadReply
      assert.strictEqual(leadAnswer.status, 201, "the transfer held before the one in flight committed and answered")
      assert.deepStrictEqual(
        (await cut).map((r) => r.status),
        rest.map(() => 0),
        "every other request was cut off"
      )

      const committed = await withSql(url, (sql) =>
        Effect.gen(function* () {
          // Waits for the insert asleep in the trigger, whose session rolls back once it finds its client gone.
          yield* sql.unsafe("DROP TRIGGER hold_transfer ON transfers")
          const rows = yield* sql<{ readonly memo: string }>`SELECT memo FROM transfers`
          return rows.map((r) => r.memo)
        })
      )
      assert.deepStrictEqual(committed, [`fault ${lead}`], "nothing of the transfer in flight was committed")
      await untilAlone(url)

      const second = await processes.start(ENV)
      const retries = await Promise.all(keys.map((key) => transfer(second.baseUrl, key)))
      assert.deepStrictEqual(
        retries.map((r) => r.status),
        keys.map(() => 201),
        retries.map((r) => r.text).join("\n")
      )
      assert.strictEqual(retries[0]?.headers.get("idempotent-replayed"), "true")
      assert.strictEqual(retries[0]?.text, leadAnswer.text, "the committed transfer replays its first answer")
      assert.deepStrictEqual(
        retries.slice(1).map((r) => r.headers.get("idempotent-replayed")),
        rest.map(() => null),
        "the cut-off transfers run now"
      )
      const answers = retries.map(
        (r) => JSON.parse(r.text) as { readonly id: string; readonly status: string; readonly memo: string }
      )
      assert.deepStrictEqual(
        answers.map((a) => [a.status, a.memo]),
        keys.map((key) => ["pending_acceptance", `fault ${key}`])
      )

      const facts = await withSql(url, (sql) =>
        Effect.all({
          transfers: sql<{ readonly id: string; readonly memo: string; readonly holdTransactionId: string }>`
            SELECT id, memo, hold_transaction_id FROM transfers`,
          holds: sql<{ readonly id: string; readonly reference: string }>`
            SELECT id, reference FROM ledger_transactions
            WHERE code = 'transfer' AND kind = 'pending' AND team_id = ${sender.teamId}`,
          others: sql<{ readonly n: string }>`
            SELECT COUNT(*)::text AS n FROM ledger_transactions WHERE code = 'transfer' AND kind <> 'pending'`,
          violations: ledgerViolations(sql)
        })
      )
      assert.deepStrictEqual(
        facts.transfers.map((t) => [t.memo, t.id]).toSorted(),
        keys.map((key, i) => [`fault ${key}`, answers[i]?.id]).toSorted(),
        "one transfer per key, the one its retry answered"
      )
      assert.deepStrictEqual(
        facts.holds.map((h) => h.reference).toSorted(),
        answers.map((a) => a.id).toSorted(),
        "one hold per transfer"
      )
      assert.deepStrictEqual(
        facts.transfers.map((t) => t.holdTransactionId).toSorted(),
        facts.holds.map((h) => h.id).toSorted(),
        "each transfer names its hold"
      )
      assert.strictEqual(facts.others[0]?.n, "0", "no hold was posted or voided")
      assert.deepStrictEqual(facts.violations, [])

      assert.deepStrictEqual(await balanceOf(second.baseUrl, sender.secret), {
        posted: SENDER_FUNDS,
        pending: TRANSFERS * AMOUNT,
        available: SENDER_FUNDS - TRANSFERS * AMOUNT
      })
      assert.deepStrictEqual(await balanceOf(second.baseUrl, recipient.secret), {
        posted: RECIPIENT_FUNDS,
        pending: 0,
        available: RECIPIENT_FUNDS
      })
    }, 180_000)
  }
)

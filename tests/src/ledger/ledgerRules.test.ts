import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

type Mode = "live" | "test"
type Entry = readonly [account: string, amount: number, currency: string, pending?: boolean]

/** What Postgres refused a statement or a commit with. */
const refusal = <A, R>(self: Effect.Effect<A, SqlError.SqlError, R>) =>
  Effect.map(Effect.flip(self), (error) => {
    const cause = error.reason.cause as { code?: string; constraint?: string; message?: string }
    return { code: cause.code, constraint: cause.constraint, message: cause.message ?? "" }
  })

const insertTeam = (name: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = crypto.randomUUID()
    yield* sql`INSERT INTO teams (id, name, base_currency) VALUES (${id}, ${name}, 'USD')`
    return id
  })

const insertAccount = (team: string, mode: Mode, kind: string, currency: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = crypto.randomUUID()
    yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency)
               VALUES (${id}, ${team}, ${mode}, ${kind}, ${`${kind} ${currency}`}, ${currency})`
    return id
  })

/** A posted ledger transaction with its entries, written as raw SQL; the entries carry the transaction's team and mode unless `entryOwner` says otherwise. */
const insertTransaction = (
  owner: { readonly team: string; readonly mode: Mode },
  entries: ReadonlyArray<Entry>,
  entryOwner = owner
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = crypto.randomUUID()
    yield* sql`INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference)
               VALUES (${id}, ${owner.team}, ${owner.mode}, 'posted', 'test', ${crypto.randomUUID()})`
    for (const [account, amount, currency, pending = false] of entries) {
      yield* sql`INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
                 VALUES (${id}, ${entryOwner.team}, ${entryOwner.mode}, ${account}, ${amount}, ${currency}, ${pending})`
    }
    return id
  })

const countOf = (query: Effect.Effect<ReadonlyArray<{ n: number | string }>, SqlError.SqlError>) =>
  Effect.map(query, (rows) => Number(rows[0]?.n ?? 0))

/** A team with live USD and EUR spend and settlement accounts, a test USD spend account, and another team. */
const fixture = Effect.gen(function* () {
  const team = yield* insertTeam("Acme")
  const other = yield* insertTeam("Other")
  return {
    team,
    other,
    usdSpend: yield* insertAccount(team, "live", "spend", "USD"),
    usdSettlement: yield* insertAccount(team, "live", "settlement", "USD"),
    eurSpend: yield* insertAccount(team, "live", "spend", "EUR"),
    eurSettlement: yield* insertAccount(team, "live", "settlement", "EUR"),
    testSpend: yield* insertAccount(team, "test", "spend", "USD"),
    otherSpend: yield* insertAccount(other, "live", "spend", "USD")
  }
})

layer(TestDatabase, { timeout: "60 seconds" })("the database enforces the ledger's rules (raw SQL)", (it) => {
  it.effect("a balanced multi-currency transaction commits", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const id = yield* sql.withTransaction(
        insertTransaction({ team: f.team, mode: "live" }, [
          [f.usdSpend, -1_000, "USD"],
          [f.usdSettlement, 1_000, "USD"],
          [f.eurSpend, -250, "EUR", true],
          [f.eurSettlement, 250, "EUR", true]
        ])
      )
      const entries = yield* countOf(sql`SELECT count(*) AS n FROM ledger_entries WHERE transaction_id = ${id}`)
      assert.strictEqual(entries, 4)
    })
  )

  it.effect("an unbalanced transaction is accepted statement by statement and refused at commit", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      let written: string | undefined
      const refused = yield* refusal(
        sql.withTransaction(
          Effect.map(
            insertTransaction({ team: f.team, mode: "live" }, [
              [f.usdSpend, -1_000, "USD"],
              [f.usdSettlement, 999, "USD"]
            ]),
            (id) => {
              written = id
            }
          )
        )
      )
      assert.strictEqual(refused.code, "23514")
      assert.match(refused.message, /does not balance in USD/u)
      assert.isDefined(written)
      const kept = yield* countOf(sql`SELECT count(*) AS n FROM ledger_transactions WHERE id = ${written ?? null}`)
      assert.strictEqual(kept, 0)
    })
  )

  it.effect("each currency balances on its own, and posted and pending entries each balance", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const acrossCurrencies = yield* refusal(
        sql.withTransaction(
          insertTransaction({ team: f.team, mode: "live" }, [
            [f.usdSpend, -100, "USD"],
            [f.eurSettlement, 100, "EUR"]
          ])
        )
      )
      assert.match(acrossCurrencies.message, /does not balance/u)
      const acrossPending = yield* refusal(
        sql.withTransaction(
          insertTransaction({ team: f.team, mode: "live" }, [
            [f.usdSpend, -100, "USD", true],
            [f.usdSettlement, 100, "USD", false]
          ])
        )
      )
      assert.match(acrossPending.message, /does not balance in USD/u)
    })
  )

  it.effect("a transaction without entries is refused at commit", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const refused = yield* refusal(sql.withTransaction(insertTransaction({ team: f.team, mode: "live" }, [])))
      assert.strictEqual(refused.code, "23514")
      assert.match(refused.message, /has no entries/u)
    })
  )

  it.effect("an entry in a currency other than its account's is refused", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const refused = yield* refusal(
        sql.withTransaction(
          insertTransaction({ team: f.team, mode: "live" }, [
            [f.usdSpend, -100, "EUR"],
            [f.eurSettlement, 100, "EUR"]
          ])
        )
      )
      assert.deepStrictEqual([refused.code, refused.constraint], ["23503", "ledger_entries_account_fkey"])
    })
  )

  it.effect("an entry whose team or mode differ from its account's, or from its transaction's, is refused", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const otherTeamsAccount = yield* refusal(
        sql.withTransaction(
          insertTransaction({ team: f.team, mode: "live" }, [
            [f.otherSpend, -100, "USD"],
            [f.usdSettlement, 100, "USD"]
          ])
        )
      )
      assert.deepStrictEqual(
        [otherTeamsAccount.code, otherTeamsAccount.constraint],
        ["23503", "ledger_entries_account_fkey"]
      )
      const otherModesAccount = yield* refusal(
        sql.withTransaction(
          insertTransaction({ team: f.team, mode: "live" }, [
            [f.testSpend, -100, "USD"],
            [f.usdSettlement, 100, "USD"]
          ])
        )
      )
      assert.deepStrictEqual(
        [otherModesAccount.code, otherModesAccount.constraint],
        ["23503", "ledger_entries_account_fkey"]
      )
      const notTheTransactionsTeam = yield* refusal(
        sql.withTransaction(
          insertTransaction(
            { team: f.other, mode: "live" },
            [
              [f.usdSpend, -100, "USD"],
              [f.usdSettlement, 100, "USD"]
            ],
            { team: f.team, mode: "live" }
          )
        )
      )
      assert.deepStrictEqual(
        [notTheTransactionsTeam.code, notTheTransactionsTeam.constraint],
        ["23503", "ledger_entries_transaction_fkey"]
      )
    })
  )

  it.effect("a second settlement or external account for a team, mode and currency is refused", () =>
    Effect.gen(function* () {
      const f = yield* fixture
      for (const [mode, kind, currency] of [
        ["live", "settlement", "USD"],
        ["live", "external", "GBP"]
      ] as const) {
        if (kind === "external") yield* insertAccount(f.team, mode, kind, currency)
        const refused = yield* refusal(insertAccount(f.team, mode, kind, currency))
        assert.deepStrictEqual([refused.code, refused.constraint], ["23505", "ledger_accounts_one_per_currency"])
      }
      yield* insertAccount(f.team, "test", "settlement", "USD")
      yield* insertAccount(f.team, "live", "settlement", "GBP")
      yield* insertAccount(f.other, "live", "settlement", "USD")
      yield* insertAccount(f.team, "live", "spend", "USD")
    })
  )

  it.effect("entries and transactions are append-only: an UPDATE or DELETE is refused", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const id = yield* sql.withTransaction(
        insertTransaction({ team: f.team, mode: "live" }, [
          [f.usdSpend, -100, "USD"],
          [f.usdSettlement, 100, "USD"]
        ])
      )
      for (const statement of [
        sql`UPDATE ledger_entries SET amount = amount * 2 WHERE transaction_id = ${id}`,
        sql`DELETE FROM ledger_entries WHERE transaction_id = ${id}`,
        sql`UPDATE ledger_transactions SET reference = 'changed' WHERE id = ${id}`
      ]) {
        const refused = yield* refusal(statement)
        assert.strictEqual(refused.code, "23001")
        assert.match(refused.message, /append-only/u)
      }
      const amounts = yield* sql<{ amount: string }>`
        SELECT amount::text AS amount FROM ledger_entries WHERE transaction_id = ${id} ORDER BY amount`
      assert.deepStrictEqual(
        amounts.map((r) => r.amount),
        ["-100", "100"]
      )
    })
  )

  it.effect("currencies are three upper-case letters", () =>
    Effect.gen(function* () {
      const f = yield* fixture
      for (const currency of ["usd", "US", "USDT"]) {
        const refused = yield* refusal(insertAccount(f.team, "live", "spend", currency))
        assert.deepStrictEqual([refused.code, refused.constraint], ["23514", "ledger_accounts_currency_iso"])
      }
    })
  )

  it.effect("spending keys of spend requests and usage, a user's current team and a delivery's event must exist", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const f = yield* fixture
      const missing = crypto.randomUUID()
      const refusals = [
        yield* refusal(sql`
          INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
            spending_key_id, metadata, decision, updated_at)
          VALUES (${crypto.randomUUID()}, ${f.team}, 'live', 'denied', 100, 'USD', '{}', 'p', ${f.usdSpend}, ${missing},
            '{}', '{}', now())`),
        yield* refusal(sql`
          INSERT INTO spend_usage (spending_key_id, period, period_start, amount) VALUES (${missing}, 'day', now(), 0)`),
        yield* refusal(sql`
          INSERT INTO users (id, email, current_team_id) VALUES (${crypto.randomUUID()}, 'a@example.com', ${missing})`),
        yield* refusal(sql`
          WITH endpoint AS (
            INSERT INTO webhook_endpoints (id, team_id, url, event_types, enabled, secret_salt, updated_at)
            VALUES (${crypto.randomUUID()}, ${f.team}, 'https://example.com', '["*"]', true, 's', now()) RETURNING id)
          INSERT INTO webhook_deliveries (id, team_id, endpoint_id, event_id, event_type, body, status, attempts,
            next_attempt_at, updated_at)
          SELECT ${crypto.randomUUID()}, ${f.team}, endpoint.id, ${missing}, 't.x', '{}', 'pending', 0, now(), now()
          FROM endpoint`)
      ]
      assert.deepStrictEqual(
        refusals.map((r) => [r.code, r.constraint]),
        [
          ["23503", "spend_requests_spending_key_fkey"],
          ["23503", "spend_usage_spending_key_fkey"],
          ["23503", "users_current_team_fkey"],
          ["23503", "webhook_deliveries_event_fkey"]
        ]
      )
    })
  )

  it.effect("every created_at is timestamptz NOT NULL DEFAULT now()", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const columns = yield* sql<{ tableName: string; dataType: string; isNullable: string; columnDefault: string }>`
        SELECT c.table_name, c.data_type, c.is_nullable, c.column_default FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND c.column_name = 'created_at' AND t.table_type = 'BASE TABLE'
        ORDER BY c.table_name`
      assert.isAtLeast(columns.length, 18)
      for (const c of columns) {
        assert.deepStrictEqual(
          [c.tableName, c.dataType, c.isNullable, c.columnDefault],
          [c.tableName, "timestamp with time zone", "NO", "now()"]
        )
      }
    })
  )
})

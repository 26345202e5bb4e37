import {
  Account,
  type AccountWithBalance,
  applyEntry,
  balanceOf,
  DuplicateLedgerTransaction,
  emptyCounters,
  HoldAlreadyResolved,
  LedgerEntry,
  LedgerRepo,
  LedgerTransaction,
  type LockedAccount
} from "@svc/domain"
import { type Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

/** A `ledger_accounts` row as read with ACCOUNT_COLUMNS: the account and the sums of its entries. */
export const AccountRow = Schema.Struct({
  ...Account.fields,
  postedSum: SafeIntegerColumn,
  pendingOut: SafeIntegerColumn,
  pendingIn: SafeIntegerColumn
})

/** A ledger transaction row as `LEDGER_TRANSACTION_COLUMNS` selects it (alias `t`). */
export const LedgerTransactionRow = Schema.Struct({
  ...LedgerTransaction.fields,
  entries: Schema.Array(Schema.Struct({ ...LedgerEntry.fields, amount: SafeIntegerColumn }))
})

/** The columns of a ledger transaction `t` with its entries, decoded by `LedgerTransactionRow`. */
export const LEDGER_TRANSACTION_COLUMNS =
  "t.id, t.team_id, t.mode, t.kind, t.code, t.reference, t.pending_id, t.created_at, " +
  "(SELECT json_agg(json_build_object('accountId', e.account_id, 'amount', e.amount::text, 'currency', e.currency, " +
  "'pending', e.pending) ORDER BY e.id) FROM ledger_entries e WHERE e.transaction_id = t.id) AS entries"

const ACCOUNT_COLUMNS = "id, team_id, mode, kind, name, currency, posted_sum, pending_out, pending_in, created_at"

/** An account row as the account and its counters, as read under a lock. */
export const lockedAccount = ({
  postedSum,
  pendingOut,
  pendingIn,
  ...account
}: typeof AccountRow.Type): LockedAccount => ({
  account,
  counters: { postedSum, pendingOut, pendingIn }
})

const withBalance = (row: typeof AccountRow.Type): AccountWithBalance => {
  const { account, counters } = lockedAccount(row)
  return { ...account, balance: balanceOf(counters) }
}

/**
 * The common table expressions that append ledger transactions with their entries and move the account sums by the
 * same amounts, for a statement of the form `WITH ${postingCtes(sql, txs)} ...`: one round trip, composable with other
 * writes of the same unit. Its names start with `ledger_`. With `onConflict: "skip"` a transaction refused by a unique
 * key appends nothing and moves nothing (it is then missing from `ledger_tx`) instead of failing the statement. With
 * `onlyWith`, the name of an earlier expression of the statement, nothing is appended unless it returns a row.
 * Entries keep their order (their ids ascend transaction by transaction, entry by entry).
 */
export const postingCtes = (
  sql: SqlClient.SqlClient,
  txs: Arr.NonEmptyReadonlyArray<LedgerTransaction>,
  onConflict: "fail" | "skip" = "fail",
  onlyWith?: string
) => {
  const transactions = JSON.stringify(
    txs.map((tx) => {
      if (tx.entries.length === 0) throw new Error("a ledger transaction without entries")
      return {
        id: tx.id,
        team_id: tx.teamId,
        mode: tx.mode,
        kind: tx.kind,
        code: tx.code,
        reference: tx.reference,
        pending_id: tx.pendingId,
        created_at: tx.createdAt
      }
    })
  )
  const entries = JSON.stringify(
    txs
      .flatMap((tx) => tx.entries.map((e) => [tx, e] as const))
      .map(([tx, e], n) => {
        const moved = applyEntry(emptyCounters, e, tx.pendingId !== null)
        return {
          n,
          transaction_id: tx.id,
          account_id: e.accountId,
          amount: e.amount,
          currency: e.currency,
          pending: e.pending,
          posted: moved.postedSum,
          pending_out: moved.pendingOut,
          pending_in: moved.pendingIn
        }
      })
  )
  return sql`
    ledger_tx AS (
      INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, pending_id, created_at)
      SELECT t.id, t.team_id, t.mode, t.kind, t.code, t.reference, t.pending_id, t.created_at
      FROM jsonb_to_recordset(${transactions}::jsonb)
        AS t(id uuid, team_id uuid, mode text, kind text, code text, reference text, pending_id uuid, created_at timestamptz)
      ${onlyWith === undefined ? sql`` : sql`WHERE EXISTS (SELECT 1 FROM ${sql(onlyWith)})`}
      ${onConflict === "skip" ? sql`ON CONFLICT DO NOTHING` : sql``}
      RETURNING id, team_id, mode
    ), ledger_input AS (
      SELECT * FROM jsonb_to_recordset(${entries}::jsonb)
        AS e(n int, transaction_id uuid, account_id uuid, amount bigint, currency text, pending boolean, posted bigint,
             pending_out bigint, pending_in bigint)
    ), ledger_inserted AS (
      INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
      SELECT t.id, t.team_id, t.mode, i.account_id, i.amount, i.currency, i.pending
      FROM ledger_input i JOIN ledger_tx t ON t.id = i.transaction_id
      ORDER BY i.n
    ), ledger_sums AS (
      SELECT i.account_id, SUM(i.posted) AS posted, SUM(i.pending_out) AS pending_out, SUM(i.pending_in) AS pending_in
      FROM ledger_input i JOIN ledger_tx t ON t.id = i.transaction_id GROUP BY i.account_id
    ), ledger_moved AS (
      UPDATE ledger_accounts a
      SET posted_sum = a.posted_sum + s.posted, pending_out = a.pending_out + s.pending_out,
          pending_in = a.pending_in + s.pending_in
      FROM ledger_sums s WHERE a.id = s.account_id
    )`
}

/** LedgerRepo on Postgres: entry sums on the account row move in the same transaction as the entries. */
export const LedgerRepoPg = Layer.effect(
  LedgerRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const accountColumns = sql.unsafe(ACCOUNT_COLUMNS)

    const transactionColumns = sql.unsafe(LEDGER_TRANSACTION_COLUMNS)
    const selectTransactions = (where: ReturnType<typeof sql.and>, limit: number) => sql`
      SELECT ${transactionColumns}
      FROM ledger_transactions t
      WHERE ${where}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${limit}`

    /**
     * Appends `tx` unless a unique key refuses it. The refusal is read from the statement's result, not caught as an
     * error: an error would abort the caller's transaction, which may go on after a refused duplicate.
     */
    const insertTransaction = (tx: LedgerTransaction) =>
      Effect.gen(function* () {
        const [appended] = yield* sql<{ appended: boolean }>`
          WITH ${postingCtes(sql, [tx], "skip")} SELECT EXISTS (SELECT 1 FROM ledger_tx) AS appended`
        if (appended?.appended === true) return
        if (
          tx.pendingId !== null &&
          (yield* sql`SELECT 1 FROM ledger_transactions WHERE pending_id = ${tx.pendingId}`).length > 0
        ) {
          return yield* new HoldAlreadyResolved({ holdId: tx.pendingId })
        }
        return yield* new DuplicateLedgerTransaction({ code: tx.code, reference: tx.reference })
      }).pipe(orUnavailable("ledger.insertTransaction"))

    const insertAccount = (account: Account, onConflict = sql``) => sql`
      INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, created_at)
      VALUES (${account.id}, ${account.teamId}, ${account.mode}, ${account.kind}, ${account.name}, ${account.currency},
              ${account.createdAt})
      ${onConflict} RETURNING id`

    return LedgerRepo.of({
      insertAccount: (account) => insertAccount(account).pipe(Effect.asVoid, orUnavailable("ledger.insertAccount")),
      ensureAccount: (account) =>
        Effect.gen(function* () {
          const inserted = yield* insertAccount(
            account,
            sql`
            ON CONFLICT (team_id, mode, kind, currency) WHERE kind IN ('settlement', 'external') DO NOTHING`
          )
          if (inserted.length > 0) return account
          const existing = yield* sql`
            SELECT ${accountColumns} FROM ledger_accounts
            WHERE team_id = ${account.teamId} AND mode = ${account.mode} AND kind = ${account.kind}
              AND currency = ${account.currency}`.pipe(Effect.flatMap(decodeFirst(Account, "ledger.ensureAccount")))
          if (Option.isNone(existing)) return yield* Effect.die(new Error("an ensured account vanished"))
          return existing.value
        }).pipe(orUnavailable("ledger.ensureAccount")),
      findAccount: (teamId, id) =>
        sql`SELECT ${accountColumns} FROM ledger_accounts WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("ledger.findAccount"),
          Effect.flatMap(decodeFirst(AccountRow, "ledger.findAccount")),
          Effect.map(Option.map(withBalance))
        ),
      findAccountByKind: (teamId, mode, kind, currency) =>
        sql`
          SELECT ${accountColumns} FROM ledger_accounts
          WHERE team_id = ${teamId} AND mode = ${mode} AND kind = ${kind} AND currency = ${currency}
          ORDER BY created_at, id LIMIT 1`.pipe(
          orUnavailable("ledger.findAccountByKind"),
          Effect.flatMap(decodeFirst(Account, "ledger.findAccountByKind"))
        ),
      listAccounts: (teamId, filter) =>
        sql`
          SELECT ${accountColumns} FROM ledger_accounts
          WHERE ${sql.and([
            sql`team_id = ${teamId}`,
            ...(filter.mode === undefined ? [] : [sql`mode = ${filter.mode}`]),
            ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`])
          ])}
          ORDER BY created_at, id`.pipe(
          orUnavailable("ledger.listAccounts"),
          Effect.flatMap(decodeRows(AccountRow, "ledger.listAccounts")),
          Effect.map((rows) => rows.map(withBalance))
        ),
      lockAccounts: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`
              SELECT ${accountColumns} FROM ledger_accounts WHERE ${sql.in("id", ids)} ORDER BY id FOR UPDATE`.pipe(
              orUnavailable("ledger.lockAccounts"),
              Effect.flatMap(decodeRows(AccountRow, "ledger.lockAccounts")),
              Effect.map((rows) => rows.map(lockedAccount))
            ),
      insertTransaction,
      findTransaction: (teamId, id) =>
        selectTransactions(sql.and([sql`t.id = ${id}`, sql`t.team_id = ${teamId}`]), 1).pipe(
          orUnavailable("ledger.findTransaction"),
          Effect.flatMap(decodeFirst(LedgerTransactionRow, "ledger.findTransaction"))
        ),
      listTransactions: (teamId, query, page) =>
        selectTransactions(
          sql.and([
            sql`t.team_id = ${teamId}`,
            ...(query.mode === undefined ? [] : [sql`t.mode = ${query.mode}`]),
            ...(query.accountId === undefined
              ? []
              : [
                  sql`EXISTS (SELECT 1 FROM ledger_entries x WHERE x.transaction_id = t.id AND x.account_id = ${query.accountId})`
                ]),
            ...Option.match(page.after, {
              onNone: () => [],
              onSome: (p) => [sql`(t.created_at, t.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
            })
          ]),
          page.limit + 1
        ).pipe(
          orUnavailable("ledger.listTransactions"),
          Effect.flatMap(decodeRows(LedgerTransactionRow, "ledger.listTransactions"))
        )
    })
  })
)

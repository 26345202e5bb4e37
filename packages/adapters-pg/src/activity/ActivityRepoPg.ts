import { ActivityRepo, type ActivitySubject } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { LEDGER_TRANSACTION_COLUMNS, LedgerTransactionRow } from "../ledger/index.ts"
import { decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const DailyRow = Schema.Struct({ spendingKeyId: Schema.String, date: Schema.String, amount: SafeIntegerColumn })

/** The most ledger transactions one item's detail shows. */
const MAX_ITEM_TRANSACTIONS = 200

/** ActivityRepo on Postgres: index-backed reads (migration 0037) over the spend, transfer, checkout and ledger tables. */
export const ActivityRepoPg = Layer.effect(
  ActivityRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(LEDGER_TRANSACTION_COLUMNS)

    /** The item's own postings and holds (its code and reference), as the ledger's reference index finds them. */
    const origins = (s: ActivitySubject) => {
      switch (s.kind) {
        case "spend_request":
        case "transfer":
          return sql`b.code = ${s.kind} AND b.reference = ${s.id}`
        case "checkout_intent":
          return sql`b.code = 'card_authorization'
            AND split_part(b.reference, ':', 1) IN (SELECT token FROM card_authorizations WHERE intent_id = ${s.id})`
      }
    }

    return ActivityRepo.of({
      ledgerTransactions: (teamId, subject) =>
        sql`WITH base AS (
              SELECT b.id FROM ledger_transactions b
              WHERE b.team_id = ${teamId} AND b.mode = ${subject.mode} AND b.kind IN ('posted', 'pending')
                AND ${origins(subject)}
            )
            SELECT ${columns} FROM ledger_transactions t
            WHERE t.team_id = ${teamId}
              AND (t.id IN (SELECT id FROM base) OR t.pending_id IN (SELECT id FROM base))
            ORDER BY t.created_at, t.id
            LIMIT ${MAX_ITEM_TRANSACTIONS}`.pipe(
          orUnavailable("activity.ledgerTransactions"),
          Effect.flatMap(decodeRows(LedgerTransactionRow, "activity.ledgerTransactions"))
        ),
      dailySpend: (teamId, mode, from, before) =>
        sql`SELECT s.spending_key_id::text AS spending_key_id,
                   to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
                   sum(s.amount)::text AS amount
            FROM (
              SELECT spending_key_id, created_at, amount FROM spend_requests
              WHERE team_id = ${teamId} AND mode = ${mode} AND status = 'approved'
                AND created_at >= ${from}::timestamptz AND created_at < ${before}::timestamptz
              UNION ALL
              SELECT spending_key_id, created_at, amount FROM transfers
              WHERE sender_team_id = ${teamId} AND mode = ${mode} AND status = 'completed'
                AND created_at >= ${from}::timestamptz AND created_at < ${before}::timestamptz
              UNION ALL
              SELECT spending_key_id, created_at, captured_amount FROM checkout_intents
              WHERE team_id = ${teamId} AND mode = ${mode} AND status = 'completed' AND captured_amount IS NOT NULL
                AND created_at >= ${from}::timestamptz AND created_at < ${before}::timestamptz
            ) s
            GROUP BY 1, 2`.pipe(
          orUnavailable("activity.dailySpend"),
          Effect.flatMap(decodeRows(DailyRow, "activity.dailySpend"))
        )
    })
  })
)

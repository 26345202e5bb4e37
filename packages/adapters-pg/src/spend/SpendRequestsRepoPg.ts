import { type KnownMerchant, SpendPolicy, SpendRequest, SpendRequestsRepo } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { approvalRow, JOINED_APPROVAL_COLUMNS, JoinedApprovalFields, withJoinedApproval } from "../approvals/index.ts"
import { AccountRow, lockedAccount, postingCtes } from "../ledger/index.ts"
import { outboxRows } from "../platform/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...Struct.omit(SpendRequest.fields, ["approval"]),
  amount: SafeIntegerColumn,
  metadata: Schema.fromJsonString(SpendRequest.fields.metadata),
  ...JoinedApprovalFields
})

const COLUMNS =
  "r.id, r.team_id, r.mode, r.status, r.amount, r.currency, r.merchant, r.purpose, r.account_id, r.spending_key_id, " +
  "r.metadata::text AS metadata, r.decision, r.ledger_transaction_id, r.hold_transaction_id, r.created_at, r.updated_at, " +
  JOINED_APPROVAL_COLUMNS

/**
 * A row of `lock_spend_decisions` (migration 0014): a locked spend or settlement account of request `n`, with its team's
 * policy and its credential's budget totals.
 */
const DecisionRow = Schema.Struct({
  n: Schema.Int,
  ...AccountRow.fields,
  teamPolicy: Schema.NullOr(SpendPolicy),
  spentToday: SafeIntegerColumn,
  spentThisMonth: SafeIntegerColumn,
  merchantKnown: Schema.Boolean
})

const toSpendRequest = (row: typeof Row.Type): SpendRequest => withJoinedApproval(row)

/** SpendRequestsRepo on Postgres; a trigger refuses any update of a request whose status is final. */
export const SpendRequestsRepoPg = Layer.effect(
  SpendRequestsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    /** Requests (as `r`) with their approvals (as `a`). */
    const withApprovals = sql.unsafe("spend_requests r LEFT JOIN approvals a ON a.id = r.approval_id")
    const one = (operation: string) => flow(decodeFirst(Row, operation), Effect.map(Option.map(toSpendRequest)))
    const all = (operation: string) => flow(decodeRows(Row, operation), Effect.map(Arr.map(toSpendRequest)))
    /** Inserts known merchants, in key order so that concurrent writers never deadlock; a known one is kept. */
    const insertKnown = (merchants: ReadonlyArray<KnownMerchant>) =>
      sql`INSERT INTO known_merchants (team_id, mode, merchant, first_paid_at)
          SELECT m.team, m.mode, m.merchant, min(m.at)
          FROM jsonb_to_recordset(${JSON.stringify(
            merchants.map((m) => ({ team: m.teamId, mode: m.mode, merchant: m.merchant, at: m.at }))
          )}::jsonb) AS m(team uuid, mode text, merchant text, at timestamptz)
          GROUP BY 1, 2, 3
          ORDER BY 1, 2, 3
          ON CONFLICT DO NOTHING`
    return SpendRequestsRepo.of({
      lockForDecisions: (locks) =>
        Effect.suspend(() => {
          const input = JSON.stringify(
            locks.map((l, n) => ({
              n,
              team: l.teamId,
              mode: l.mode,
              account: l.accountId,
              key: l.spendingKeyId,
              day: l.windows.day,
              month: l.windows.month,
              merchant: l.merchant ?? null
            }))
          )
          // Whether each request's merchant is known is read after its locks, in the same statement.
          return sql`SELECT d.*, EXISTS (
                       SELECT 1 FROM jsonb_to_recordset(${input}::jsonb) AS m(n int, team uuid, mode text, merchant text)
                       JOIN known_merchants k ON k.team_id = m.team AND k.mode = m.mode AND k.merchant = m.merchant
                       WHERE m.n = d.n
                     ) AS merchant_known
                     FROM lock_spend_decisions(${input}::jsonb) d`
        }).pipe(
          orUnavailable("spendRequests.lockForDecisions"),
          Effect.flatMap(decodeRows(DecisionRow, "spendRequests.lockForDecisions")),
          Effect.map((rows) =>
            locks.map((_, n) => {
              const mine = rows.filter((row) => row.n === n)
              const locked = (kind: "spend" | "settlement") =>
                Option.map(Option.fromNullishOr(mine.find((a) => a.kind === kind)), ({ n: _, ...row }) =>
                  lockedAccount(row)
                )
              return {
                spendAccount: locked("spend"),
                settlementAccount: locked("settlement"),
                teamPolicy: mine[0]?.teamPolicy ?? {},
                spentToday: mine[0]?.spentToday ?? 0,
                spentThisMonth: mine[0]?.spentThisMonth ?? 0,
                merchantKnown: mine[0]?.merchantKnown ?? false
              }
            })
          )
        ),
      insertDecided: (batch) =>
        Effect.suspend(() => {
          const transactions = batch.flatMap((d) => (d.ledgerTransaction === null ? [] : [d.ledgerTransaction]))
          const approvals = batch.flatMap((d) => (d.approval === null ? [] : [approvalRow(d.approval)]))
          const usage = new Map<string, { key: string; period: string; start: string; amount: number }>()
          for (const { request, usage: spent } of batch) {
            if (spent.amount === 0) continue
            for (const [period, start] of [
              ["day", spent.windows.day],
              ["month", spent.windows.month]
            ] as const) {
              const id = `${request.spendingKeyId}|${period}|${start}`
              const total = usage.get(id)
              usage.set(id, { key: request.spendingKeyId, period, start, amount: (total?.amount ?? 0) + spent.amount })
            }
          }
          const outbox = outboxRows(batch.flatMap((d) => d.events))
          const known = batch.flatMap(({ request, knownMerchant }) =>
            knownMerchant === null
              ? []
              : [{ teamId: request.teamId, mode: request.mode, merchant: knownMerchant, at: request.createdAt }]
          )
          const writes = [
            ...(Arr.isArrayNonEmpty(transactions) ? [postingCtes(sql, transactions)] : []),
            ...(Arr.isArrayNonEmpty(approvals)
              ? [sql`approval AS (INSERT INTO approvals ${sql.insert(approvals)})`]
              : []),
            sql`spend_request AS (INSERT INTO spend_requests ${sql.insert(
              Arr.map(batch, ({ request: sr }) => ({
                id: sr.id,
                team_id: sr.teamId,
                mode: sr.mode,
                status: sr.status,
                amount: sr.amount,
                currency: sr.currency,
                merchant: JSON.stringify(sr.merchant),
                purpose: sr.purpose,
                account_id: sr.accountId,
                spending_key_id: sr.spendingKeyId,
                metadata: JSON.stringify(sr.metadata),
                decision: JSON.stringify(sr.decision),
                approval_id: sr.approval?.id ?? null,
                ledger_transaction_id: sr.ledgerTransactionId,
                hold_transaction_id: sr.holdTransactionId,
                created_at: sr.createdAt,
                updated_at: sr.updatedAt
              }))
            )})`,
            ...(usage.size === 0
              ? []
              : [
                  sql`spend_usage_moved AS (
                    INSERT INTO spend_usage AS u (spending_key_id, period, period_start, amount)
                    SELECT m.key, m.period, m.start, m.amount
                    FROM jsonb_to_recordset(${JSON.stringify([...usage.values()])}::jsonb)
                      AS m(key uuid, period text, start timestamptz, amount bigint)
                    ORDER BY 1, 2, 3
                    ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount)`
                ]),
            ...(Arr.isArrayNonEmpty(outbox) ? [sql`outbox AS (INSERT INTO outbox_events ${sql.insert(outbox)})`] : []),
            ...(known.length > 0 ? [sql`known_merchant AS (${insertKnown(known)})`] : [])
          ]
          return sql`WITH ${sql.csv(writes)} SELECT 1`
        }).pipe(Effect.asVoid, orUnavailable("spendRequests.insertDecided")),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE r.id = ${id} AND r.team_id = ${teamId}`.pipe(
          orUnavailable("spendRequests.find"),
          Effect.flatMap(one("spendRequests.find"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          sql`r.team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`r.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`r.status = ${query.status}`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`r.approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(r.created_at, r.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("spendRequests.list"),
          Effect.flatMap(all("spendRequests.list"))
        ),
      moveUsage: (keyId, windows, delta) =>
        sql`UPDATE spend_usage SET amount = amount + ${delta}
            WHERE spending_key_id = ${keyId}
              AND ((period = 'day' AND period_start = ${windows.day}) OR (period = 'month' AND period_start = ${windows.month}))`.pipe(
          Effect.asVoid,
          orUnavailable("spendRequests.moveUsage")
        ),
      rememberMerchants: (merchants) =>
        merchants.length > 0
          ? insertKnown(merchants).pipe(Effect.asVoid, orUnavailable("spendRequests.rememberMerchants"))
          : Effect.void,
      transition: (teamId, id, t) =>
        sql`WITH r AS (
                   UPDATE spend_requests
                   SET status = ${t.status}, ledger_transaction_id = ${t.ledgerTransactionId}, updated_at = ${t.updatedAt}
                   WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending_approval'
                   RETURNING *
                 )
                 SELECT ${columns} FROM r LEFT JOIN approvals a ON a.id = r.approval_id`.pipe(
          orUnavailable("spendRequests.transition"),
          Effect.flatMap(one("spendRequests.transition"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM spend_requests r JOIN approvals a ON a.id = r.approval_id
                 WHERE a.status = 'pending' AND a.expires_at <= ${now} AND r.status = 'pending_approval'
                 ORDER BY a.expires_at, r.id LIMIT ${limit}`.pipe(
          orUnavailable("spendRequests.dueForExpiry"),
          Effect.flatMap(all("spendRequests.dueForExpiry"))
        )
    })
  })
)

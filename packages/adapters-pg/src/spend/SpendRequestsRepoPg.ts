import {
  ApprovalTier,
  type DecisionInputs,
  type DecisionLock,
  isoOfMillis,
  type KnownMerchant,
  type RequestUsage,
  SpendFreeze,
  SpendPolicy,
  SpendRequest,
  SpendRequestsRepo,
  type UsageTotals,
  type UsageWindows,
  utcDayStart
} from "@svc/domain"
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

/** Totals keyed by period, as `lock_spend_decisions` answers them; a total not yet stored is absent. */
const Totals = Schema.Record(Schema.String, Schema.Int)

/**
 * A row of `lock_spend_decisions` (migrations 0018, 0056): a locked spend or settlement account of request `n`, with
 * its team's policy, its credential's budget totals and its recent requests, and what its governance reads.
 */
const DecisionRow = Schema.Struct({
  n: Schema.Int,
  ...AccountRow.fields,
  teamPolicy: Schema.NullOr(SpendPolicy),
  spent: Totals,
  categorySpent: Totals,
  recentRequests: Schema.Array(Schema.Int),
  requestsToday: SafeIntegerColumn,
  versionedTeamPolicy: Schema.NullOr(SpendPolicy),
  teamPolicyVersion: Schema.NullOr(Schema.Int),
  merchantKnown: Schema.Boolean,
  approvalTiers: Schema.NullOr(Schema.Array(ApprovalTier)),
  keyCreatedBy: Schema.NullOr(Schema.String),
  freezes: Schema.Array(SpendFreeze)
})

const totalsOf = (totals: typeof Totals.Type): UsageTotals => ({
  day: totals.day ?? 0,
  week: totals.week ?? 0,
  month: totals.month ?? 0,
  year: totals.year ?? 0,
  lifetime: totals.lifetime ?? 0
})

/** Where the lifetime total's period starts: it never moves. */
const LIFETIME_START = "1970-01-01T00:00:00.000Z"

/** Every total (category, period, start) an amount in `w` moves: the credential's, and its category's if it has one. */
const totalsIn = (w: UsageWindows) =>
  (w.category === null ? [""] : ["", w.category]).flatMap((category) =>
    (
      [
        ["day", w.day],
        ["week", w.week],
        ["month", w.month],
        ["year", w.year],
        ["lifetime", LIFETIME_START]
      ] as const
    ).map(([period, start]) => ({ category, period, start }))
  )

/** Requests counted at or before the start of the day before are read by no velocity limit any more. */
const MILLIS_KEPT = 2 * 86_400_000

/**
 * The statements (CTEs of one write) that count `usage` of each credential: the amounts added to its totals in
 * (credential, category, period, start) order, the times of its counted requests, and the times too old to count
 * dropped.
 */
const usageWrites = (
  sql: SqlClient.SqlClient,
  counted: ReadonlyArray<{ readonly keyId: string; readonly usage: RequestUsage }>
) => {
  const totals = new Map<string, { key: string; category: string; period: string; start: string; amount: number }>()
  const times: Array<{ spending_key_id: string; at: string }> = []
  for (const { keyId, usage } of counted) {
    if (usage.amount === 0) continue
    for (const { category, period, start } of totalsIn(usage.windows)) {
      const id = `${keyId}|${category}|${period}|${start}`
      const total = totals.get(id)
      totals.set(id, { key: keyId, category, period, start, amount: (total?.amount ?? 0) + usage.amount })
    }
    times.push({ spending_key_id: keyId, at: isoOfMillis(usage.at) })
  }
  if (!Arr.isArrayNonEmpty(times)) return []
  const oldest = Math.min(...counted.map((c) => c.usage.at))
  return [
    sql`spend_usage_moved AS (
      INSERT INTO spend_usage AS u (spending_key_id, category, period, period_start, amount)
      SELECT m.key, m.category, m.period, m.start, m.amount
      FROM jsonb_to_recordset(${JSON.stringify([...totals.values()])}::jsonb)
        AS m(key uuid, category text, period text, start timestamptz, amount bigint)
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (spending_key_id, category, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount)`,
    sql`spend_request_times_added AS (INSERT INTO spend_request_times ${sql.insert(times)})`,
    sql`spend_request_times_dropped AS (
      DELETE FROM spend_request_times
      WHERE spending_key_id IN ${sql.in([...new Set(times.map((t) => t.spending_key_id))])}
        AND at < ${isoOfMillis(utcDayStart(oldest) - MILLIS_KEPT)})`
  ]
}

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
    /**
     * `lock_spend_decisions` of `locks`, locking and creating the totals when `lock`, else only reading, with what the
     * decisions' governance reads (freezes, approval tiers, the key's creator: migration 0056); with the team policy
     * read with its version (migration 0020), and whether each request's merchant is known, in the same statement.
     */
    const decisionInputs = (locks: ReadonlyArray<DecisionLock>, lock: boolean, operation: string) =>
      Effect.suspend(() => {
        const input = JSON.stringify(
          locks.map((l, n) => ({
            n,
            team: l.teamId,
            mode: l.mode,
            account: l.accountId,
            key: l.spendingKeyId,
            day: l.windows.day,
            week: l.windows.week,
            month: l.windows.month,
            year: l.windows.year,
            category: l.windows.category,
            at: isoOfMillis(l.at),
            per_hour: l.requestLimits.maxRequestsPerHour ?? null,
            per_day: l.requestLimits.maxRequestsPerDay ?? null,
            merchant: l.merchant ?? null
          }))
        )
        return sql`SELECT d.*, p.policy AS versioned_team_policy, p.version AS team_policy_version, EXISTS (
                     SELECT 1 FROM jsonb_to_recordset(${input}::jsonb) AS m(n int, team uuid, mode text, merchant text)
                     JOIN known_merchants k ON k.team_id = m.team AND k.mode = m.mode AND k.merchant = m.merchant
                     WHERE m.n = d.n
                   ) AS merchant_known
                   FROM lock_spend_decisions(${input}::jsonb, ${lock}) d LEFT JOIN team_spend_policies p ON p.team_id = d.team_id
                   ORDER BY d.n, d.id`
      }).pipe(
        orUnavailable(operation),
        Effect.flatMap(decodeRows(DecisionRow, operation)),
        Effect.map((rows) =>
          locks.map((_, n): DecisionInputs => {
            const mine = rows.filter((row) => row.n === n)
            const locked = (kind: "spend" | "settlement") =>
              Option.map(
                Option.fromNullishOr(mine.find((a) => a.kind === kind)),
                ({
                  n: _,
                  teamPolicy: _p,
                  spent: _s,
                  categorySpent: _c,
                  recentRequests: _r,
                  requestsToday: _t,
                  versionedTeamPolicy: _v,
                  teamPolicyVersion: _pv,
                  merchantKnown: _m,
                  approvalTiers: _a,
                  keyCreatedBy: _k,
                  freezes: _f,
                  ...row
                }) => lockedAccount(row)
              )
            const first = mine[0]
            return {
              spendAccount: locked("spend"),
              settlementAccount: locked("settlement"),
              teamPolicy: first?.versionedTeamPolicy ?? {},
              teamPolicyVersion: first?.teamPolicyVersion ?? null,
              spent: totalsOf(first?.spent ?? {}),
              categorySpent: totalsOf(first?.categorySpent ?? {}),
              recentRequests: first?.recentRequests ?? [],
              requestsToday: first?.requestsToday ?? 0,
              merchantKnown: first?.merchantKnown ?? false,
              governance: {
                freezes: first?.freezes ?? [],
                approvalTiers: first?.approvalTiers ?? [],
                keyCreatedBy: first?.keyCreatedBy ?? null
              }
            }
          })
        )
      )
    return SpendRequestsRepo.of({
      lockForDecisions: (locks) => decisionInputs(locks, true, "spendRequests.lockForDecisions"),
      readForDecision: (lock) =>
        decisionInputs([lock], false, "spendRequests.readForDecision").pipe(
          // One lock answers one state.
          Effect.flatMap(([inputs]) => (inputs === undefined ? Effect.die("no state read") : Effect.succeed(inputs)))
        ),
      insertDecided: (batch) =>
        Effect.suspend(() => {
          const transactions = batch.flatMap((d) => (d.ledgerTransaction === null ? [] : [d.ledgerTransaction]))
          const approvals = batch.flatMap((d) => (d.approval === null ? [] : [approvalRow(d.approval)]))
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
            ...usageWrites(
              sql,
              batch.map((d) => ({ keyId: d.request.spendingKeyId, usage: d.usage }))
            ),
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
          ...(query.spendingKeyId === undefined ? [] : [sql`r.spending_key_id = ${query.spendingKeyId}`]),
          ...(query.createdFrom === undefined ? [] : [sql`r.created_at >= ${query.createdFrom}::timestamptz`]),
          ...(query.createdBefore === undefined ? [] : [sql`r.created_at < ${query.createdBefore}::timestamptz`]),
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
      recordUsage: (keyId, usage) =>
        Effect.suspend(() => {
          const writes = usageWrites(sql, [{ keyId, usage }])
          return Arr.isArrayNonEmpty(writes) ? Effect.asVoid(sql`WITH ${sql.csv(writes)} SELECT 1`) : Effect.void
        }).pipe(Effect.asVoid, orUnavailable("spendRequests.recordUsage")),
      moveUsage: (keyId, windows, delta) =>
        sql`UPDATE spend_usage u SET amount = u.amount + ${delta}
            FROM jsonb_to_recordset(${JSON.stringify(totalsIn(windows))}::jsonb)
              AS m(category text, period text, start timestamptz)
            WHERE u.spending_key_id = ${keyId} AND u.category = m.category AND u.period = m.period
              AND u.period_start = m.start`.pipe(Effect.asVoid, orUnavailable("spendRequests.moveUsage")),
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

import {
  BankAccount,
  Category,
  ConnectionView,
  searchWords,
  Tag,
  Transaction,
  TransactionAttachment,
  type TransactionChanges,
  type TransactionDetails,
  type TransactionFilter,
  type TransactionId,
  type TransactionListRequest,
  TransactionsRepo
} from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { decodeRows, orUnavailable, replicaReads, SafeIntegerColumn } from "../../shared/index.ts"

const TransactionRow = Schema.Struct({
  ...Transaction.fields,
  amountMinor: SafeIntegerColumn,
  baseAmountMinor: Schema.NullOr(SafeIntegerColumn)
})

const DetailsRow = Schema.Struct({
  ...TransactionRow.fields,
  categoryJson: Schema.NullOr(Category),
  accountJson: Schema.NullOr(BankAccount),
  connectionJson: Schema.NullOr(ConnectionView)
})

const TagLink = Schema.Struct({ transactionId: Schema.String, ...Tag.fields })

const AttachmentRow = Schema.Struct({ ...TransactionAttachment.fields, size: SafeIntegerColumn })

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`

const TRANSACTION_COLUMNS = `t.id, t.team_id, to_char(t.date, 'YYYY-MM-DD') AS date, t.name, t.description,
  t.amount_minor, t.currency, t.base_amount_minor, t.base_currency, t.status, t.internal, t.recurring, t.frequency,
  t.manual, t.note, t.category_id, t.bank_account_id, t.tax_rate::float8 AS tax_rate, t.tax_type,
  t.counterparty_name, t.provider, t.provider_transaction_id, ${iso("t.created_at")} AS created_at,
  ${iso("t.updated_at")} AS updated_at`

const CATEGORY_JSON = `CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object(
  'id', c.id, 'teamId', c.team_id, 'slug', c.slug, 'name', c.name, 'color', c.color, 'description', c.description,
  'taxRate', c.tax_rate::float8, 'taxType', c.tax_type, 'parentId', c.parent_id, 'type', c.type,
  'excluded', c.excluded, 'system', c.system, 'createdAt', ${iso("c.created_at")},
  'updatedAt', ${iso("c.updated_at")}) END AS category_json`

const ACCOUNT_JSON = `CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object(
  'id', a.id, 'teamId', a.team_id, 'name', a.name, 'type', a.type, 'currency', a.currency,
  'balanceMinor', a.balance_minor, 'baseCurrency', a.base_currency, 'baseBalanceMinor', a.base_balance_minor,
  'enabled', a.enabled, 'manual', a.manual, 'connectionId', a.connection_id, 'externalId', a.external_id,
  'createdAt', ${iso("a.created_at")}, 'updatedAt', ${iso("a.updated_at")}) END AS account_json`

const CONNECTION_JSON = `CASE WHEN bc.id IS NULL THEN NULL ELSE json_build_object(
  'id', bc.id, 'name', coalesce(bc.name, bc.provider), 'logoUrl', bc.logo_url) END AS connection_json`

const rowOf = (t: Transaction): Record<string, unknown> => ({
  id: t.id,
  team_id: t.teamId,
  date: t.date,
  name: t.name,
  description: t.description,
  amount_minor: t.amountMinor,
  currency: t.currency,
  base_amount_minor: t.baseAmountMinor,
  base_currency: t.baseCurrency,
  status: t.status,
  internal: t.internal,
  recurring: t.recurring,
  frequency: t.frequency,
  manual: t.manual,
  note: t.note,
  category_id: t.categoryId,
  bank_account_id: t.bankAccountId,
  tax_rate: t.taxRate,
  tax_type: t.taxType,
  counterparty_name: t.counterpartyName,
  provider: t.provider,
  provider_transaction_id: t.providerTransactionId,
  created_at: t.createdAt,
  updated_at: t.updatedAt
})

const changedColumns = (changes: TransactionChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = { updated_at: changes.updatedAt }
  const set = (column: string, value: unknown) => {
    if (value !== undefined) columns[column] = value
  }
  set("date", changes.date)
  set("name", changes.name)
  set("description", changes.description)
  set("amount_minor", changes.amountMinor)
  set("currency", changes.currency)
  set("base_amount_minor", changes.baseAmountMinor)
  set("base_currency", changes.baseCurrency)
  set("status", changes.status)
  set("internal", changes.internal)
  set("recurring", changes.recurring)
  set("frequency", changes.frequency)
  set("note", changes.note)
  set("category_id", changes.categoryId)
  set("bank_account_id", changes.bankAccountId)
  set("tax_rate", changes.taxRate)
  set("tax_type", changes.taxType)
  set("counterparty_name", changes.counterpartyName)
  return columns
}

/** The text filter as a prefix query over the generated `search` vector: every word must start one of its words. */
export const tsQueryOf = (q: string): string | undefined => {
  const words = searchWords(q)
  return words.length === 0 ? undefined : words.map((w) => `'${w}':*`).join(" & ")
}

/** TransactionsRepo on Postgres: one query for a page (keyset on the sort key and id), then its tags and files. */
export const TransactionsRepoPg = Layer.effect(
  TransactionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const reads = yield* replicaReads
    const transactionColumns = sql.literal(TRANSACTION_COLUMNS)
    const detailColumns = sql.literal(`${CATEGORY_JSON}, ${ACCOUNT_JSON}, ${CONNECTION_JSON}`)

    const conditions = (teamId: string, f: TransactionFilter): Array<Statement.Fragment> => {
      const where: Array<Statement.Fragment> = [sql`t.team_id = ${teamId}`]
      if (f.from !== undefined) where.push(sql`t.date >= ${f.from}::date`)
      if (f.to !== undefined) where.push(sql`t.date <= ${f.to}::date`)
      const query = f.q === undefined ? undefined : tsQueryOf(f.q)
      if (query !== undefined) where.push(sql`t.search @@ to_tsquery('simple', ${query})`)
      if (f.categoryIds !== undefined || f.uncategorized === true) {
        const ids = f.categoryIds ?? []
        const anyOf = ids.length === 0 ? sql`false` : sql.in("t.category_id", ids)
        where.push(f.uncategorized === true ? sql`(${anyOf} OR t.category_id IS NULL)` : anyOf)
      }
      if (f.tagIds !== undefined) {
        where.push(
          f.tagIds.length === 0
            ? sql`false`
            : sql`EXISTS (SELECT 1 FROM transaction_tags tt
                          WHERE tt.transaction_id = t.id AND ${sql.in("tt.tag_id", f.tagIds)})`
        )
      }
      if (f.bankAccountIds !== undefined) {
        where.push(f.bankAccountIds.length === 0 ? sql`false` : sql.in("t.bank_account_id", f.bankAccountIds))
      }
      if (f.type === "income") where.push(sql`t.amount_minor > 0`)
      if (f.type === "expense") where.push(sql`t.amount_minor < 0`)
      if (f.statuses !== undefined) where.push(sql.in("t.status", f.statuses))
      if (f.currency !== undefined) where.push(sql`t.currency = ${f.currency}`)
      if (f.amountMinMinor !== undefined) where.push(sql`abs(t.amount_minor) >= ${f.amountMinMinor}`)
      if (f.amountMaxMinor !== undefined) where.push(sql`abs(t.amount_minor) <= ${f.amountMaxMinor}`)
      if (f.hasAttachments !== undefined) {
        const exists = sql`EXISTS (SELECT 1 FROM transaction_attachments ta WHERE ta.transaction_id = t.id)`
        where.push(f.hasAttachments ? exists : sql`NOT ${exists}`)
      }
      if (f.recurring !== undefined) where.push(sql`t.recurring = ${f.recurring}`)
      if (f.frequencies !== undefined) where.push(sql.in("t.frequency", f.frequencies))
      return where
    }

    /** The tags and attachments of `rows`, read on `db` (the client their page was read on). */
    const details = (db: SqlClient.SqlClient, rows: ReadonlyArray<typeof DetailsRow.Type>, operation: string) =>
      Effect.gen(function* () {
        if (rows.length === 0) return [] as Array<TransactionDetails>
        const ids = rows.map((r) => r.id)
        const tagRows = yield* db`
          SELECT tt.transaction_id, g.id, g.team_id, g.name, ${sql.literal(iso("g.created_at"))} AS created_at
          FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
          WHERE ${sql.in("tt.transaction_id", ids)}
          ORDER BY g.name, g.id`.pipe(Effect.flatMap(decodeRows(TagLink, operation)))
        const files = yield* db`
          SELECT id, team_id, transaction_id, to_jsonb(path) AS path, filename, size, type,
                 ${sql.literal(iso("created_at"))} AS created_at
          FROM transaction_attachments WHERE ${sql.in("transaction_id", ids)}
          ORDER BY created_at, id`.pipe(Effect.flatMap(decodeRows(AttachmentRow, operation)))
        return rows.map(({ categoryJson, accountJson, connectionJson, ...transaction }) => ({
          transaction,
          category: categoryJson,
          account: accountJson === null ? null : { account: accountJson, connection: connectionJson },
          tags: tagRows.filter((l) => l.transactionId === transaction.id).map(({ transactionId: _, ...tag }) => tag),
          attachments: files.filter((f) => f.transactionId === transaction.id)
        }))
      })

    const selectDetails = (
      db: SqlClient.SqlClient,
      page: Statement.Fragment,
      order: Statement.Fragment,
      operation: string
    ) =>
      db`
        WITH page AS (${page})
        SELECT t.*, ${detailColumns}
        FROM page t
        LEFT JOIN transaction_categories c ON c.team_id = t.team_id AND c.id = t.category_id
        LEFT JOIN bank_accounts a ON a.team_id = t.team_id AND a.id = t.bank_account_id
        LEFT JOIN bank_connections bc ON bc.id = a.connection_id
        ORDER BY ${order}`.pipe(
        Effect.flatMap(decodeRows(DetailsRow, operation)),
        Effect.flatMap((rows) => details(db, rows, operation))
      )

    const list = (request: TransactionListRequest) => {
      const { by, direction } = request.sort
      const key = by === "date" ? "date" : "amount_minor"
      const dir = sql.literal(direction === "asc" ? "ASC" : "DESC")
      const where = conditions(request.teamId, request.filter)
      if (Option.isSome(request.after)) {
        const { key: value, id } = request.after.value
        const position = by === "date" ? sql`(${value}::date, ${id}::uuid)` : sql`(${value}::bigint, ${id}::uuid)`
        const column = sql.literal(`(t.${key}, t.id)`)
        where.push(direction === "asc" ? sql`${column} > ${position}` : sql`${column} < ${position}`)
      }
      const order = sql.literal(
        `t.${key} ${direction === "asc" ? "ASC" : "DESC"}, t.id ${direction === "asc" ? "ASC" : "DESC"}`
      )
      const page = sql`
        SELECT ${transactionColumns} FROM transactions t
        WHERE ${sql.and(where)}
        ORDER BY t.${sql.literal(key)} ${dir}, t.id ${dir}
        LIMIT ${request.limit + 1}`
      return reads("transactions.list", (db) => selectDetails(db, page, order, "transactions.list"))
    }

    const find = (teamId: string, id: string) =>
      selectDetails(
        sql,
        sql`SELECT ${transactionColumns} FROM transactions t WHERE t.team_id = ${teamId} AND t.id = ${id}`,
        sql`t.id`,
        "transactions.find"
      ).pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

    const linkTags = (links: ReadonlyArray<Record<string, unknown>>) => {
      const [first, ...rest] = links
      return first === undefined
        ? Effect.void
        : sql`INSERT INTO transaction_tags ${sql.insert([first, ...rest])}`.pipe(Effect.asVoid)
    }

    return TransactionsRepo.of({
      insert: (transactions) => {
        const [first, ...rest] = transactions
        return first === undefined
          ? Effect.void
          : sql
              .withTransaction(
                Effect.gen(function* () {
                  yield* sql`INSERT INTO transactions ${sql.insert([rowOf(first.transaction), ...rest.map((n) => rowOf(n.transaction))])}`
                  yield* linkTags(
                    transactions.flatMap(({ transaction: t, tagIds }) =>
                      tagIds.map((tagId) => ({ team_id: t.teamId, transaction_id: t.id, tag_id: tagId }))
                    )
                  )
                })
              )
              .pipe(orUnavailable("transactions.insert"))
      },
      insertImported: (t) =>
        Effect.gen(function* () {
          const inserted = yield* sql<{ id: TransactionId }>`
            INSERT INTO transactions ${sql.insert(rowOf(t))}
            ON CONFLICT (team_id, provider, provider_transaction_id) DO NOTHING RETURNING id`
          if (inserted[0] !== undefined) return { outcome: "created" as const, id: inserted[0].id }
          const [existing] = yield* sql<{ id: TransactionId }>`
            SELECT id FROM transactions
            WHERE team_id = ${t.teamId} AND provider = ${t.provider} AND provider_transaction_id = ${t.providerTransactionId}`
          if (existing === undefined) return yield* Effect.die("an imported transaction conflicted but was not found")
          return { outcome: "existing" as const, id: existing.id }
        }).pipe(orUnavailable("transactions.insertImported")),
      find: (teamId, id) => find(teamId, id).pipe(orUnavailable("transactions.find")),
      list: (request) => list(request).pipe(orUnavailable("transactions.list")),
      update: (teamId, ids, changes) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql
              .withTransaction(
                Effect.gen(function* () {
                  const updated = yield* sql<{ id: TransactionId }>`
                    UPDATE transactions SET ${sql.update(changedColumns(changes))}
                    WHERE team_id = ${teamId} AND ${sql.in("id", ids)} RETURNING id`
                  const tagIds = changes.tagIds
                  if (tagIds !== undefined && updated.length > 0) {
                    const touched = updated.map((r) => r.id)
                    yield* sql`DELETE FROM transaction_tags WHERE ${sql.in("transaction_id", touched)}`
                    yield* linkTags(
                      touched.flatMap((id) =>
                        tagIds.map((tagId) => ({ team_id: teamId, transaction_id: id, tag_id: tagId }))
                      )
                    )
                  }
                  return updated.map((r) => r.id)
                })
              )
              .pipe(orUnavailable("transactions.update")),
      remove: (teamId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<{ id: TransactionId }>`
              DELETE FROM transactions WHERE team_id = ${teamId} AND ${sql.in("id", ids)} RETURNING id`.pipe(
              Effect.map((rows) => rows.map((r) => r.id)),
              orUnavailable("transactions.remove")
            ),
      addAttachment: (a) =>
        sql`
          INSERT INTO transaction_attachments (id, team_id, transaction_id, path, filename, size, type, created_at)
          VALUES (${a.id}, ${a.teamId}, ${a.transactionId},
                  ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(a.path)}::jsonb)), ${a.filename}, ${a.size},
                  ${a.type}, ${a.createdAt})`.pipe(Effect.asVoid, orUnavailable("transactions.addAttachment")),
      removeAttachment: (teamId, transactionId, id) =>
        sql`
          DELETE FROM transaction_attachments
          WHERE team_id = ${teamId} AND transaction_id = ${transactionId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("transactions.removeAttachment")
        )
    })
  })
)

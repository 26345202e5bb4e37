import { dayOf, Invoice, type InvoiceFilter, InvoiceLineItem, InvoicesRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../../shared/index.ts"

const InvoiceRow = Schema.Struct({
  ...Invoice.fields,
  discountMinor: SafeIntegerColumn,
  lineItems: Schema.fromJsonString(Schema.Array(InvoiceLineItem))
})

const NumberRow = Schema.Struct({ lastNumber: SafeIntegerColumn })
const IdRow = Schema.Struct({ id: Schema.String })

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`

const COLUMNS = `id, team_id, invoice_number, status, customer_id, customer_name, currency,
  to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date,
  line_items::text AS line_items, discount_minor, note, internal_note, token, ${iso("scheduled_at")} AS scheduled_at,
  ${iso("sent_at")} AS sent_at, ${iso("paid_at")} AS paid_at, ${iso("canceled_at")} AS canceled_at,
  payment_intent_id, paid_transaction_id, ${iso("created_at")} AS created_at, ${iso("updated_at")} AS updated_at`

/** InvoicesRepo on Postgres. */
export const InvoicesRepoPg = Layer.effect(
  InvoicesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const decodeOne = (operation: string) => decodeFirst(InvoiceRow, operation)
    const anyRow = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(IdRow, operation)(rows).pipe(Effect.map((decoded) => decoded.length > 0))

    /** Rows whose status, as seen at `nowIso`, is `status` (see `effectiveStatus`). */
    const statusIs = (status: NonNullable<InvoiceFilter["status"]>, nowIso: string) => {
      const today = dayOf(nowIso)
      const sent = sql`(status = 'unpaid' OR (status = 'scheduled' AND scheduled_at <= ${nowIso}::timestamptz))`
      switch (status) {
        case "scheduled":
          return sql`status = 'scheduled' AND scheduled_at > ${nowIso}::timestamptz`
        case "unpaid":
          return sql`${sent} AND due_date >= ${today}::date`
        case "overdue":
          return sql`${sent} AND due_date < ${today}::date`
        default:
          return sql`status = ${status}`
      }
    }

    return InvoicesRepo.of({
      nextNumber: (teamId) =>
        sql`INSERT INTO invoice_number_counters (team_id, last_number) VALUES (${teamId}, 1)
            ON CONFLICT (team_id) DO UPDATE SET last_number = invoice_number_counters.last_number + 1
            RETURNING last_number`.pipe(
          orUnavailable("invoices.nextNumber"),
          Effect.flatMap(decodeRows(NumberRow, "invoices.nextNumber")),
          Effect.map((rows) => rows[0]?.lastNumber ?? 1)
        ),
      insert: (i) =>
        sql`INSERT INTO invoices (id, team_id, invoice_number, status, customer_id, customer_name, currency, issue_date,
                                  due_date, line_items, discount_minor, note, internal_note, token, scheduled_at, sent_at, paid_at,
                                  canceled_at, payment_intent_id, paid_transaction_id, created_at, updated_at)
            VALUES (${i.id}, ${i.teamId}, ${i.invoiceNumber}, ${i.status}, ${i.customerId}, ${i.customerName},
                    ${i.currency}, ${i.issueDate}, ${i.dueDate}, ${JSON.stringify(i.lineItems)}::jsonb,
                    ${i.discountMinor}, ${i.note}, ${i.internalNote}, ${i.token}, ${i.scheduledAt}, ${i.sentAt}, ${i.paidAt},
                    ${i.canceledAt}, ${i.paymentIntentId}, ${i.paidTransactionId}, ${i.createdAt}, ${i.updatedAt})
            ON CONFLICT (team_id, invoice_number) DO NOTHING
            RETURNING id`.pipe(orUnavailable("invoices.insert"), Effect.flatMap(anyRow("invoices.insert"))),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM invoices WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("invoices.find"),
          Effect.flatMap(decodeOne("invoices.find"))
        ),
      findById: (id) =>
        sql`SELECT ${columns} FROM invoices WHERE id = ${id}`.pipe(
          orUnavailable("invoices.findById"),
          Effect.flatMap(decodeOne("invoices.findById"))
        ),
      findByToken: (token) =>
        sql`SELECT ${columns} FROM invoices WHERE token = ${token}`.pipe(
          orUnavailable("invoices.findByToken"),
          Effect.flatMap(decodeOne("invoices.findByToken"))
        ),
      list: (teamId, filter, page) =>
        sql`
          SELECT ${columns} FROM invoices WHERE team_id = ${teamId}
          ${filter.status === null ? sql`` : sql`AND ${statusIs(filter.status, filter.nowIso)}`}
          ${filter.customerId === null ? sql`` : sql`AND customer_id = ${filter.customerId}`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("invoices.list"),
          Effect.flatMap(decodeRows(InvoiceRow, "invoices.list"))
        ),
      all: (teamId) =>
        sql`SELECT ${columns} FROM invoices WHERE team_id = ${teamId}`.pipe(
          orUnavailable("invoices.all"),
          Effect.flatMap(decodeRows(InvoiceRow, "invoices.all"))
        ),
      replace: (i, from) =>
        sql`
          WITH taken AS (
            SELECT 1 FROM invoices WHERE team_id = ${i.teamId} AND invoice_number = ${i.invoiceNumber} AND id <> ${i.id}
          ), changed AS (
            UPDATE invoices SET invoice_number = ${i.invoiceNumber}, status = ${i.status}, customer_id = ${i.customerId},
              customer_name = ${i.customerName}, currency = ${i.currency}, issue_date = ${i.issueDate},
              due_date = ${i.dueDate}, line_items = ${JSON.stringify(i.lineItems)}::jsonb,
              discount_minor = ${i.discountMinor}, note = ${i.note}, internal_note = ${i.internalNote},
              scheduled_at = ${i.scheduledAt},
              sent_at = ${i.sentAt}, paid_at = ${i.paidAt}, canceled_at = ${i.canceledAt},
              payment_intent_id = ${i.paymentIntentId}, paid_transaction_id = ${i.paidTransactionId},
              updated_at = ${i.updatedAt}
            WHERE id = ${i.id} AND team_id = ${i.teamId} AND status = ${from} AND NOT EXISTS (SELECT 1 FROM taken)
            RETURNING id
          )
          SELECT CASE WHEN EXISTS (SELECT 1 FROM changed) THEN 'updated'
                      WHEN EXISTS (SELECT 1 FROM taken) THEN 'number_taken'
                      ELSE 'stale' END AS id`.pipe(
          orUnavailable("invoices.replace"),
          Effect.flatMap(decodeRows(IdRow, "invoices.replace")),
          Effect.map((rows) => {
            const outcome = rows[0]?.id
            return outcome === "updated" || outcome === "number_taken" ? outcome : "stale"
          })
        ),
      delete: (teamId, id, from) =>
        sql`DELETE FROM invoices WHERE id = ${id} AND team_id = ${teamId} AND status = ${from} RETURNING id`.pipe(
          orUnavailable("invoices.delete"),
          Effect.flatMap(anyRow("invoices.delete"))
        )
    })
  })
)

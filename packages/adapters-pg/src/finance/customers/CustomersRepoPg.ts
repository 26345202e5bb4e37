import { type Customer, CustomerCounts, CustomerCountsRepo, CustomersRepo, CustomerWithTags } from "@svc/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../../shared/index.ts"

const IdRow = Schema.Struct({ id: Schema.String })

const { tagIds: _tagIds, ...customerColumns } = CustomerWithTags.fields
const CustomerRow = Schema.Struct(customerColumns)
const CountsRow = Schema.Struct({
  id: Schema.String,
  invoiceCount: SafeIntegerColumn,
  projectCount: SafeIntegerColumn
})

const withTagIds = (row: typeof CustomerRow.Type): CustomerWithTags => ({ ...row, tagIds: row.tags.map((t) => t.id) })

/** A customer's columns with its tags by name, in one row. */
const CUSTOMER_SELECT = `
  SELECT c.*,
    coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)
              FROM customer_tags ct JOIN tags t ON t.id = ct.tag_id
              WHERE ct.customer_id = c.id), '[]'::json) AS tags
  FROM customers c`

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`

/** CustomersRepo on Postgres. */
export const CustomersRepoPg = Layer.effect(
  CustomersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const changed = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(IdRow, operation)(rows).pipe(Effect.map((decoded) => decoded.length > 0))
    const setTags = (c: Customer) =>
      Effect.gen(function* () {
        yield* sql`DELETE FROM customer_tags WHERE customer_id = ${c.id}`
        const links = c.tagIds.map(
          (tagId): Record<string, unknown> => ({ team_id: c.teamId, customer_id: c.id, tag_id: tagId })
        )
        if (Arr.isReadonlyArrayNonEmpty(links)) yield* sql`INSERT INTO customer_tags ${sql.insert(links)}`
      })
    return CustomersRepo.of({
      insert: (c) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO customers (id, team_id, name, email, billing_email, phone, website, contact,
                           address_line1, address_line2, city, state, zip, country_code, vat_number, note,
                           description, created_at, updated_at)
                         VALUES (${c.id}, ${c.teamId}, ${c.name}, ${c.email}, ${c.billingEmail}, ${c.phone},
                           ${c.website}, ${c.contact}, ${c.addressLine1}, ${c.addressLine2}, ${c.city}, ${c.state},
                           ${c.zip}, ${c.countryCode}, ${c.vatNumber}, ${c.note}, ${c.description}, ${c.createdAt},
                           ${c.updatedAt})`
              yield* setTags(c)
            })
          )
          .pipe(orUnavailable("customers.insert")),
      find: (teamId, id) =>
        sql`${sql.unsafe(CUSTOMER_SELECT)} WHERE c.id = ${id} AND c.team_id = ${teamId}`.pipe(
          orUnavailable("customers.find"),
          Effect.flatMap(decodeFirst(CustomerRow, "customers.find")),
          Effect.map(Option.map(withTagIds))
        ),
      list: (teamId, q, page) =>
        sql`
          ${sql.unsafe(CUSTOMER_SELECT)} WHERE c.team_id = ${teamId}
          ${q === null ? sql`` : sql`AND (c.name ILIKE ${containing(q)} OR c.email ILIKE ${containing(q)})`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (c.created_at, c.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("customers.list"),
          Effect.flatMap(decodeRows(CustomerRow, "customers.list")),
          Effect.map(Arr.map(withTagIds))
        ),
      update: (c) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const rows = yield* sql`UPDATE customers SET name = ${c.name}, email = ${c.email},
                  billing_email = ${c.billingEmail}, phone = ${c.phone}, website = ${c.website},
                  contact = ${c.contact}, address_line1 = ${c.addressLine1}, address_line2 = ${c.addressLine2},
                  city = ${c.city}, state = ${c.state}, zip = ${c.zip}, country_code = ${c.countryCode},
                  vat_number = ${c.vatNumber}, note = ${c.note}, description = ${c.description},
                  updated_at = ${c.updatedAt}
                WHERE id = ${c.id} AND team_id = ${c.teamId}
                RETURNING id`
              if (rows.length > 0) yield* setTags(c)
              return rows
            })
          )
          .pipe(orUnavailable("customers.update"), Effect.flatMap(changed("customers.update"))),
      delete: (teamId, id) =>
        sql`DELETE FROM customers WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("customers.delete"),
          Effect.flatMap(changed("customers.delete"))
        )
    })
  })
)

/** CustomerCountsRepo on Postgres: one grouped read over the page's ids. */
export const CustomerCountsRepoPg = Layer.effect(
  CustomerCountsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return CustomerCountsRepo.of({
      counts: (teamId, ids) =>
        sql`
          SELECT customers.id,
            (SELECT count(*) FROM invoices i
             WHERE i.team_id = customers.team_id AND i.customer_id = customers.id) AS invoice_count,
            (SELECT count(*) FROM tracker_projects p
             WHERE p.team_id = customers.team_id AND p.customer_id = customers.id) AS project_count
          FROM customers WHERE team_id = ${teamId} AND ${sql.in("id", ids)}`.pipe(
          orUnavailable("customers.counts"),
          Effect.flatMap(decodeRows(CountsRow, "customers.counts")),
          Effect.map((rows) => new Map(rows.map((r) => [r.id, CustomerCounts.make(r)])))
        )
    })
  })
)

import { Customer, CustomersRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../../shared/index.ts"

const IdRow = Schema.Struct({ id: Schema.String })

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`

/** CustomersRepo on Postgres. */
export const CustomersRepoPg = Layer.effect(
  CustomersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const changed = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(IdRow, operation)(rows).pipe(Effect.map((decoded) => decoded.length > 0))
    return CustomersRepo.of({
      insert: (c) =>
        sql`INSERT INTO customers (id, team_id, name, email, billing_email, phone, website, contact, address_line1,
                                   address_line2, city, state, zip, country_code, vat_number, note, created_at,
                                   updated_at)
            VALUES (${c.id}, ${c.teamId}, ${c.name}, ${c.email}, ${c.billingEmail}, ${c.phone}, ${c.website},
                    ${c.contact}, ${c.addressLine1}, ${c.addressLine2}, ${c.city}, ${c.state}, ${c.zip},
                    ${c.countryCode}, ${c.vatNumber}, ${c.note}, ${c.createdAt}, ${c.updatedAt})`.pipe(
          Effect.asVoid,
          orUnavailable("customers.insert")
        ),
      find: (teamId, id) =>
        sql`SELECT * FROM customers WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("customers.find"),
          Effect.flatMap(decodeFirst(Customer, "customers.find"))
        ),
      list: (teamId, q, page) =>
        sql`
          SELECT * FROM customers WHERE team_id = ${teamId}
          ${q === null ? sql`` : sql`AND (name ILIKE ${containing(q)} OR email ILIKE ${containing(q)})`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("customers.list"),
          Effect.flatMap(decodeRows(Customer, "customers.list"))
        ),
      update: (c) =>
        sql`UPDATE customers SET name = ${c.name}, email = ${c.email}, billing_email = ${c.billingEmail},
              phone = ${c.phone}, website = ${c.website}, contact = ${c.contact}, address_line1 = ${c.addressLine1},
              address_line2 = ${c.addressLine2}, city = ${c.city}, state = ${c.state}, zip = ${c.zip},
              country_code = ${c.countryCode}, vat_number = ${c.vatNumber}, note = ${c.note},
              updated_at = ${c.updatedAt}
            WHERE id = ${c.id} AND team_id = ${c.teamId}
            RETURNING id`.pipe(orUnavailable("customers.update"), Effect.flatMap(changed("customers.update"))),
      delete: (teamId, id) =>
        sql`DELETE FROM customers WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("customers.delete"),
          Effect.flatMap(changed("customers.delete"))
        )
    })
  })
)

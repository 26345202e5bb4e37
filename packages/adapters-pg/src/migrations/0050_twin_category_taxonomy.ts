import { RENAMED_STANDARD_SLUGS, STANDARD_CATEGORIES } from "@svc/domain/model"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Moves every team's standard categories to the twin's taxonomy without losing a categorisation: a category keeps its
 * id, so its transactions (which name it by id) stay in it.
 * 1. A category whose slug a standard category now takes is the team's own and takes the suffix `-custom`
 *    (`-custom-` and the start of its id if that is taken): the team's own categories so named, and the first
 *    taxonomy's `taxes` (a child of `taxes-government`, whose slug the twin gives to that parent).
 * 2. The first taxonomy's categories the twin has no counterpart for (`raw-materials`, `legal`, `accounting`,
 *    `recruiting`, `hardware`, `hosting`) stay as they are, as the team's own (`system` false): a member may then
 *    rename, move or delete them.
 * 3. The renamed ones (`RENAMED_STANDARD_SLUGS`) take the twin's slug.
 * 4. The twin's categories a team lacks are added.
 * 5. Every standard category takes its parent and type; its name and color too unless a member changed the category
 *    (its `updated_at` after its `created_at`), whose own name and color stay.
 * Running on teams already on the twin's taxonomy changes nothing.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const taxonomy = JSON.stringify(STANDARD_CATEGORIES)
  const renames = JSON.stringify(RENAMED_STANDARD_SLUGS.map(([from, to]) => ({ from, to })))
  const standard = sql`SELECT s.slug FROM jsonb_to_recordset(${taxonomy}::jsonb) AS s(slug text)`
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`
        UPDATE transaction_categories c
        SET system = false,
            slug = CASE
              WHEN EXISTS (SELECT 1 FROM transaction_categories x WHERE x.team_id = c.team_id AND x.slug = c.slug || '-custom')
              THEN c.slug || '-custom-' || left(c.id::text, 8)
              ELSE c.slug || '-custom'
            END
        WHERE c.slug IN (${standard})
          AND (NOT c.system OR (c.slug = 'taxes' AND EXISTS (
            SELECT 1 FROM transaction_categories p WHERE p.id = c.parent_id AND p.slug = 'taxes-government')))`
      yield* sql`
        UPDATE transaction_categories c
        SET system = false
        WHERE c.system
          AND c.slug NOT IN (${standard})
          AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset(${renames}::jsonb) AS r("from" text, "to" text)
                          WHERE r."from" = c.slug)`
      yield* sql`
        UPDATE transaction_categories c
        SET slug = r."to"
        FROM jsonb_to_recordset(${renames}::jsonb) AS r("from" text, "to" text)
        WHERE c.system AND c.slug = r."from"`
      const insert = (children: boolean) => sql`
        INSERT INTO transaction_categories
          (id, team_id, slug, name, color, tax_rate, tax_type, parent_id, type, excluded, system, created_at, updated_at)
        SELECT gen_random_uuid(), t.id, s.slug, s.name, s.color, s."taxRate", s."taxType",
               (SELECT p.id FROM transaction_categories p WHERE p.team_id = t.id AND p.system AND p.slug = s.parent),
               s.type, s.excluded, true, now(), now()
        FROM teams t
        CROSS JOIN jsonb_to_recordset(${taxonomy}::jsonb)
          AS s(slug text, name text, color text, type text, parent text, excluded boolean, "taxRate" numeric, "taxType" text)
        WHERE (s.parent IS NOT NULL) = ${children}
          AND NOT EXISTS (SELECT 1 FROM transaction_categories c WHERE c.team_id = t.id AND c.slug = s.slug)`
      yield* insert(false)
      yield* insert(true)
      yield* sql`
        UPDATE transaction_categories c
        SET parent_id = (SELECT p.id FROM transaction_categories p WHERE p.team_id = c.team_id AND p.system AND p.slug = s.parent),
            type = s.type,
            name = CASE WHEN c.updated_at = c.created_at THEN s.name ELSE c.name END,
            color = CASE WHEN c.updated_at = c.created_at THEN s.color ELSE c.color END
        FROM jsonb_to_recordset(${taxonomy}::jsonb) AS s(slug text, name text, color text, type text, parent text)
        WHERE c.system AND c.slug = s.slug`
    })
  )
})

import { CategoriesRepo, Category, type CategoryChanges } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../../shared/index.ts"

const COLUMNS = `id, team_id, slug, name, color, description, tax_rate::float8 AS tax_rate, tax_type, parent_id, type,
  excluded, system, created_at, updated_at`

const rowOf = (c: Category): Record<string, unknown> => ({
  id: c.id,
  team_id: c.teamId,
  slug: c.slug,
  name: c.name,
  color: c.color,
  description: c.description,
  tax_rate: c.taxRate,
  tax_type: c.taxType,
  parent_id: c.parentId,
  type: c.type,
  excluded: c.excluded,
  system: c.system,
  created_at: c.createdAt,
  updated_at: c.updatedAt
})

const changedColumns = (changes: CategoryChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = { updated_at: changes.updatedAt }
  if (changes.name !== undefined) columns.name = changes.name
  if (changes.slug !== undefined) columns.slug = changes.slug
  if (changes.color !== undefined) columns.color = changes.color
  if (changes.description !== undefined) columns.description = changes.description
  if (changes.taxRate !== undefined) columns.tax_rate = changes.taxRate
  if (changes.taxType !== undefined) columns.tax_type = changes.taxType
  if (changes.parentId !== undefined) columns.parent_id = changes.parentId
  if (changes.type !== undefined) columns.type = changes.type
  if (changes.excluded !== undefined) columns.excluded = changes.excluded
  return columns
}

/** CategoriesRepo on Postgres. */
export const CategoriesRepoPg = Layer.effect(
  CategoriesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    const find = (teamId: string, id: string) =>
      sql`SELECT ${columns} FROM transaction_categories WHERE team_id = ${teamId} AND id = ${id}`.pipe(
        orUnavailable("categories.find"),
        Effect.flatMap(decodeFirst(Category, "categories.find"))
      )
    return CategoriesRepo.of({
      insert: (categories) => {
        const [first] = categories
        if (first === undefined) return Effect.succeed("inserted" as const)
        return Effect.gen(function* () {
          const taken = yield* sql`
            SELECT 1 FROM transaction_categories
            WHERE team_id = ${first.teamId} AND ${sql.in(
              "slug",
              categories.map((c) => c.slug)
            )} LIMIT 1`
          if (taken.length > 0) return "slug_taken" as const
          const inserted = yield* sql`
            INSERT INTO transaction_categories ${sql.insert([rowOf(first), ...categories.slice(1).map(rowOf)])}
            ON CONFLICT DO NOTHING RETURNING id`
          return inserted.length === categories.length ? ("inserted" as const) : ("slug_taken" as const)
        }).pipe(orUnavailable("categories.insert"))
      },
      list: (teamId) =>
        sql`SELECT ${columns} FROM transaction_categories WHERE team_id = ${teamId}
            ORDER BY system DESC, name, id`.pipe(
          orUnavailable("categories.list"),
          Effect.flatMap(decodeRows(Category, "categories.list"))
        ),
      find,
      findMany: (teamId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`SELECT ${columns} FROM transaction_categories WHERE team_id = ${teamId} AND ${sql.in("id", ids)}`.pipe(
              orUnavailable("categories.findMany"),
              Effect.flatMap(decodeRows(Category, "categories.findMany"))
            ),
      update: (teamId, id, changes) =>
        Effect.gen(function* () {
          const rows = yield* sql`
            UPDATE transaction_categories SET ${sql.update(changedColumns(changes))}
            WHERE team_id = ${teamId} AND id = ${id}
              AND NOT EXISTS (
                SELECT 1 FROM transaction_categories o
                WHERE o.team_id = ${teamId} AND o.slug = ${changes.slug ?? null} AND o.id <> ${id})
            RETURNING ${columns}`
          const updated = yield* decodeFirst(Category, "categories.update")(rows)
          if (Option.isSome(updated)) return updated.value
          return Option.isSome(yield* find(teamId, id)) ? ("slug_taken" as const) : ("not_found" as const)
        }).pipe(orUnavailable("categories.update")),
      remove: (teamId, id) =>
        sql<{ system: boolean }>`
          WITH target AS (SELECT id, system FROM transaction_categories WHERE team_id = ${teamId} AND id = ${id}),
          gone AS (
            DELETE FROM transaction_categories
            WHERE id IN (SELECT id FROM target WHERE NOT system) RETURNING id
          )
          SELECT system FROM target`.pipe(
          Effect.map(([row]) => (row === undefined ? false : row.system ? ("system" as const) : true)),
          orUnavailable("categories.remove")
        )
    })
  })
)

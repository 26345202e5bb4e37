import { Tag, TagsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, replicaReads } from "../../shared/index.ts"

/** TagsRepo on Postgres. */
export const TagsRepoPg = Layer.effect(
  TagsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const reads = yield* replicaReads
    const find = (teamId: string, id: string) =>
      sql`SELECT id, team_id, name, created_at FROM tags WHERE team_id = ${teamId} AND id = ${id}`.pipe(
        orUnavailable("tags.find"),
        Effect.flatMap(decodeFirst(Tag, "tags.find"))
      )
    return TagsRepo.of({
      insert: (tag) =>
        sql`INSERT INTO tags (id, team_id, name, created_at) VALUES (${tag.id}, ${tag.teamId}, ${tag.name}, ${tag.createdAt})
            ON CONFLICT (team_id, name) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("tags.insert")
        ),
      list: (teamId) =>
        reads(
          "tags.list",
          (db) => db`SELECT id, team_id, name, created_at FROM tags WHERE team_id = ${teamId} ORDER BY name, id`
        ).pipe(orUnavailable("tags.list"), Effect.flatMap(decodeRows(Tag, "tags.list"))),
      find,
      existing: (teamId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<{ id: string }>`SELECT id FROM tags WHERE team_id = ${teamId} AND ${sql.in("id", ids)}`.pipe(
              Effect.map((rows) => rows.map((r) => r.id as (typeof ids)[number])),
              orUnavailable("tags.existing")
            ),
      rename: (teamId, id, name) =>
        Effect.gen(function* () {
          const rows = yield* sql`
            UPDATE tags SET name = ${name} WHERE team_id = ${teamId} AND id = ${id}
              AND NOT EXISTS (SELECT 1 FROM tags o WHERE o.team_id = ${teamId} AND o.name = ${name} AND o.id <> ${id})
            RETURNING id, team_id, name, created_at`
          const renamed = yield* decodeFirst(Tag, "tags.rename")(rows)
          if (Option.isSome(renamed)) return renamed.value
          return Option.isSome(yield* find(teamId, id)) ? ("name_taken" as const) : ("not_found" as const)
        }).pipe(orUnavailable("tags.rename")),
      remove: (teamId, id) =>
        sql`DELETE FROM tags WHERE team_id = ${teamId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("tags.remove")
        )
    })
  })
)

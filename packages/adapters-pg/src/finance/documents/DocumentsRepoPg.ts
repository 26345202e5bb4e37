import { Document, DocumentsRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../../shared/index.ts"

const IdRow = Schema.Struct({ id: Schema.String })

/** DocumentsRepo on Postgres. */
export const DocumentsRepoPg = Layer.effect(
  DocumentsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return DocumentsRepo.of({
      insert: (d) =>
        sql`INSERT INTO documents (id, team_id, title, name, content_type, size, path, created_at)
            VALUES (${d.id}, ${d.teamId}, ${d.title}, ${d.name}, ${d.contentType}, ${d.size}, ${d.path},
                    ${d.createdAt})`.pipe(Effect.asVoid, orUnavailable("documents.insert")),
      find: (teamId, id) =>
        sql`SELECT * FROM documents WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("documents.find"),
          Effect.flatMap(decodeFirst(Document, "documents.find"))
        ),
      list: (teamId, page) =>
        sql`
          SELECT * FROM documents WHERE team_id = ${teamId}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("documents.list"),
          Effect.flatMap(decodeRows(Document, "documents.list"))
        ),
      delete: (teamId, id) =>
        sql`DELETE FROM documents WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("documents.delete"),
          Effect.flatMap(decodeRows(IdRow, "documents.delete")),
          Effect.map((rows) => rows.length > 0)
        )
    })
  })
)

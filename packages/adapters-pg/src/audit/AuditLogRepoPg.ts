import { AuditEntry, AuditLogRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({ ...AuditEntry.fields, seq: SafeIntegerColumn })

const HeadRow = Schema.Struct({ seq: SafeIntegerColumn, hash: Schema.String })

const COLUMNS = "team_id, seq, id, content, prev_hash, hash"

/**
 * AuditLogRepo on Postgres (migrations 0020, 0041): `append` stages the entries with the transaction's events, and at
 * commit they are inserted, each linked and hashed by the row trigger under its team's head row lock; a trigger refuses
 * every update and delete.
 */
export const AuditLogRepoPg = Layer.effect(
  AuditLogRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return AuditLogRepo.of({
      append: (drafts) =>
        sql`SELECT audit_stage(${JSON.stringify(
          drafts.map((d) => ({ team_id: d.teamId, id: d.id, content: d.content }))
        )}::jsonb)`.pipe(Effect.asVoid, orUnavailable("audit.append")),
      list: (teamId, page) =>
        sql`SELECT ${columns} FROM audit_entries
            WHERE team_id = ${teamId} ${Option.match(page.after, {
              onNone: () => sql``,
              onSome: (p) =>
                sql`AND seq < (SELECT min(a.seq) FROM audit_entries a WHERE a.team_id = ${teamId} AND a.id = ${p.id})`
            })}
            ORDER BY seq DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("audit.list"),
          Effect.flatMap(decodeRows(Row, "audit.list"))
        ),
      range: (teamId, afterSeq, limit) =>
        sql`SELECT ${columns} FROM audit_entries WHERE team_id = ${teamId} AND seq > ${afterSeq}
            ORDER BY seq LIMIT ${limit}`.pipe(
          orUnavailable("audit.range"),
          Effect.flatMap(decodeRows(Row, "audit.range"))
        ),
      head: (teamId) =>
        sql`SELECT seq, hash FROM audit_heads WHERE team_id = ${teamId}`.pipe(
          orUnavailable("audit.head"),
          Effect.flatMap(decodeFirst(HeadRow, "audit.head"))
        )
    })
  })
)

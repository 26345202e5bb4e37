import { DomainEvent, Notification, NotificationsRepo } from "@svc/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, replicaReads } from "../shared/index.ts"

const DomainEventRow = Schema.Struct({ ...DomainEvent.fields, data: Schema.fromJsonString(DomainEvent.fields.data) })

const NotificationRow = Schema.Struct({
  ...Notification.fields,
  metadata: Schema.fromJsonString(Notification.fields.metadata)
})

const COLUMNS = `id, team_id, user_id, type, priority, source, status, metadata::text AS metadata, last_used_at, event_id,
  created_at`

/**
 * NotificationsRepo on Postgres: the events to notify are the rows the outbox trigger queued (notifying types only),
 * taken with FOR UPDATE SKIP LOCKED and deleted in the pass's transaction.
 */
export const NotificationsRepoPg = Layer.effect(
  NotificationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const reads = yield* replicaReads
    const columns = sql.unsafe(COLUMNS)
    const visibleTo = (reader: { readonly teamId: string; readonly userId: string }) =>
      sql`team_id = ${reader.teamId} AND (user_id IS NULL OR user_id = ${reader.userId})`
    return NotificationsRepo.of({
      list: (reader, filter, page) =>
        reads(
          "notifications.list",
          (db) => db`
          SELECT ${columns} FROM notifications
          WHERE ${visibleTo(reader)}
          ${filter.statuses === null ? sql`` : sql`AND ${sql.in("status", filter.statuses)}`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
        ).pipe(orUnavailable("notifications.list"), Effect.flatMap(decodeRows(NotificationRow, "notifications.list"))),
      setStatus: (reader, id, status) =>
        sql`UPDATE notifications SET status = ${status} WHERE id = ${id} AND ${visibleTo(reader)}
            RETURNING ${columns}`.pipe(
          orUnavailable("notifications.setStatus"),
          Effect.flatMap(decodeFirst(NotificationRow, "notifications.setStatus"))
        ),
      setStatusAll: (reader, status) =>
        sql`
          WITH changed AS (
            UPDATE notifications SET status = ${status}
            WHERE ${visibleTo(reader)} AND status <> ${status}
            RETURNING *
          )
          SELECT ${columns} FROM changed ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("notifications.setStatusAll"),
          Effect.flatMap(decodeRows(NotificationRow, "notifications.setStatusAll"))
        ),
      lockUnnotifiedEvents: (limit) =>
        sql`
          SELECT event_id AS id, team_id, mode, type, data::text AS data, created_at FROM notification_queue
          ORDER BY created_at, event_id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(
          orUnavailable("notifications.lockUnnotifiedEvents"),
          Effect.flatMap(decodeRows(DomainEventRow, "notifications.lockUnnotifiedEvents"))
        ),
      insert: (...notifications) => {
        const rows = notifications.map(
          (n): Record<string, unknown> => ({
            id: n.id,
            team_id: n.teamId,
            user_id: n.userId,
            type: n.type,
            priority: n.priority,
            source: n.source,
            status: n.status,
            metadata: JSON.stringify(n.metadata),
            last_used_at: n.lastUsedAt,
            event_id: n.eventId,
            created_at: n.createdAt
          })
        )
        return Arr.isArrayNonEmpty(rows)
          ? sql`INSERT INTO notifications ${sql.insert(rows)} ON CONFLICT (event_id) DO NOTHING`.pipe(
              Effect.asVoid,
              orUnavailable("notifications.insert")
            )
          : Effect.void
      },
      markNotified: (ids) =>
        ids.length === 0
          ? Effect.void
          : sql`DELETE FROM notification_queue WHERE ${sql.in("event_id", ids)}`.pipe(
              Effect.asVoid,
              orUnavailable("notifications.markNotified")
            )
    })
  })
)

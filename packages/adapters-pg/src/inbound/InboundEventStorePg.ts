import { InboundEvent, InboundEventStore } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, selectCount } from "../shared/index.ts"

const InboundEventRow = Schema.Struct({
  ...InboundEvent.fields,
  payload: Schema.fromJsonString(InboundEvent.fields.payload)
})

/** InboundEventStore on Postgres: unique per (endpoint, provider event id); claims use FOR UPDATE SKIP LOCKED. */
export const InboundEventStorePg = Layer.effect(
  InboundEventStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(
      "id, endpoint, provider_event_id, type, payload::text AS payload, status, attempts, next_attempt_at, last_error, received_at, processed_at, team_id, discarded_at, discarded_by"
    )
    return InboundEventStore.of({
      record: (e) =>
        Effect.gen(function* () {
          const inserted = yield* sql`
            INSERT INTO inbound_events (id, endpoint, provider_event_id, type, payload, status, attempts, next_attempt_at,
                                        last_error, received_at, processed_at, team_id, discarded_at, discarded_by)
            VALUES (${e.id}, ${e.endpoint}, ${e.providerEventId}, ${e.type}, ${JSON.stringify(e.payload)}::jsonb,
                    ${e.status}, ${e.attempts}, ${e.nextAttemptAt}, ${e.lastError}, ${e.receivedAt}, ${e.processedAt},
                    ${e.teamId}, ${e.discardedAt}, ${e.discardedBy})
            ON CONFLICT (endpoint, provider_event_id) DO NOTHING
            RETURNING ${columns}`
          if (inserted.length > 0) return { rows: inserted, duplicate: false }
          const existing = yield* sql`
            SELECT ${columns} FROM inbound_events
            WHERE endpoint = ${e.endpoint} AND provider_event_id = ${e.providerEventId}`
          return { rows: existing, duplicate: true }
        }).pipe(
          orUnavailable("inboundEvents.record"),
          Effect.flatMap(({ rows, duplicate }) =>
            decodeFirst(
              InboundEventRow,
              "inboundEvents.record"
            )(rows).pipe(
              Effect.flatMap(
                Option.match({
                  onSome: (event) => Effect.succeed({ event, duplicate }),
                  onNone: () => Effect.die(`inbound event ${e.providerEventId} vanished after a conflicting insert`)
                })
              )
            )
          )
        ),
      claimDue: ({ now, leaseUntil, limit }) =>
        sql`
          UPDATE inbound_events SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
          WHERE id IN (
            SELECT id FROM inbound_events
            WHERE status = 'pending' AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING ${columns}`.pipe(
          orUnavailable("inboundEvents.claimDue"),
          Effect.flatMap(decodeRows(InboundEventRow, "inboundEvents.claimDue"))
        ),
      claim: (id, leaseUntil) =>
        sql`
          UPDATE inbound_events SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
          WHERE id = ${id} AND status = 'pending'
          RETURNING ${columns}`.pipe(
          orUnavailable("inboundEvents.claim"),
          Effect.flatMap(decodeFirst(InboundEventRow, "inboundEvents.claim"))
        ),
      markProcessed: (id, at) =>
        sql`UPDATE inbound_events SET status = 'processed', processed_at = ${at}, last_error = NULL WHERE id = ${id}`.pipe(
          Effect.asVoid,
          orUnavailable("inboundEvents.markProcessed")
        ),
      markFailed: (id, error, retryAt) =>
        (retryAt === null
          ? sql`UPDATE inbound_events SET status = 'parked', last_error = ${error} WHERE id = ${id}`
          : sql`UPDATE inbound_events SET last_error = ${error}, next_attempt_at = ${retryAt}
                WHERE id = ${id} AND status = 'pending'`
        ).pipe(Effect.asVoid, orUnavailable("inboundEvents.markFailed")),
      find: (id) =>
        sql`SELECT ${columns} FROM inbound_events WHERE id = ${id}`.pipe(
          orUnavailable("inboundEvents.find"),
          Effect.flatMap(decodeFirst(InboundEventRow, "inboundEvents.find"))
        ),
      list: (filter, page) =>
        sql`
          SELECT ${columns} FROM inbound_events
          WHERE status = ${filter.status}
          ${filter.teamId === undefined ? sql`` : sql`AND team_id = ${filter.teamId}`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (received_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY received_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("inboundEvents.list"),
          Effect.flatMap(decodeRows(InboundEventRow, "inboundEvents.list"))
        ),
      requeueParked: (id, now) =>
        sql`
          UPDATE inbound_events SET status = 'pending', attempts = 0, next_attempt_at = ${now}
          WHERE id = ${id} AND status = 'parked'
          RETURNING ${columns}`.pipe(
          orUnavailable("inboundEvents.requeueParked"),
          Effect.flatMap(decodeFirst(InboundEventRow, "inboundEvents.requeueParked"))
        ),
      discardParked: (id, by, at) =>
        sql`
          UPDATE inbound_events SET status = 'discarded', discarded_at = ${at}, discarded_by = ${by}
          WHERE id = ${id} AND status = 'parked'
          RETURNING ${columns}`.pipe(
          orUnavailable("inboundEvents.discardParked"),
          Effect.flatMap(decodeFirst(InboundEventRow, "inboundEvents.discardParked"))
        ),
      countParked: selectCount(sql, sql`SELECT count(*) AS count FROM inbound_events WHERE status = 'parked'`).pipe(
        orUnavailable("inboundEvents.countParked")
      )
    })
  })
)

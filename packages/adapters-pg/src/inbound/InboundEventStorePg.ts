import { type InboundEvent, InboundEventStore } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface Row {
  readonly id: string
  readonly endpoint: string
  readonly providerEventId: string
  readonly type: string
  readonly payload: Record<string, unknown> | string
  readonly status: InboundEvent["status"]
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lastError: string | null
  readonly receivedAt: Date
  readonly processedAt: Date | null
}

const toEvent = (row: Row): InboundEvent => ({
  id: row.id,
  endpoint: row.endpoint,
  providerEventId: row.providerEventId,
  type: row.type,
  payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload,
  status: row.status,
  attempts: Number(row.attempts),
  nextAttemptAt: iso(row.nextAttemptAt),
  lastError: row.lastError,
  receivedAt: iso(row.receivedAt),
  processedAt: row.processedAt === null ? null : iso(row.processedAt)
})

/** InboundEventStore on Postgres: unique per (endpoint, provider event id); claims use FOR UPDATE SKIP LOCKED. */
export const InboundEventStorePg = Layer.effect(
  InboundEventStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(
      "id, endpoint, provider_event_id, type, payload::text AS payload, status, attempts, next_attempt_at, last_error, received_at, processed_at"
    )
    return InboundEventStore.of({
      record: (e) =>
        Effect.gen(function* () {
          const inserted = yield* sql<Row>`
            INSERT INTO inbound_events (id, endpoint, provider_event_id, type, payload, status, attempts, next_attempt_at,
                                        last_error, received_at, processed_at)
            VALUES (${e.id}, ${e.endpoint}, ${e.providerEventId}, ${e.type}, ${JSON.stringify(e.payload)}::jsonb,
                    ${e.status}, ${e.attempts}, ${e.nextAttemptAt}, ${e.lastError}, ${e.receivedAt}, ${e.processedAt})
            ON CONFLICT (endpoint, provider_event_id) DO NOTHING
            RETURNING ${columns}`
          if (inserted[0] !== undefined) return { event: toEvent(inserted[0]), duplicate: false }
          const existing = yield* sql<Row>`
            SELECT ${columns} FROM inbound_events
            WHERE endpoint = ${e.endpoint} AND provider_event_id = ${e.providerEventId}`
          return { event: toEvent(existing[0]!), duplicate: true }
        }).pipe(orUnavailable("inboundEvents.record")),
      claimDue: ({ now, leaseUntil, limit }) =>
        sql<Row>`
          UPDATE inbound_events SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
          WHERE id IN (
            SELECT id FROM inbound_events
            WHERE status = 'pending' AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          orUnavailable("inboundEvents.claimDue")
        ),
      claim: (id, leaseUntil) =>
        sql<Row>`
          UPDATE inbound_events SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
          WHERE id = ${id} AND status = 'pending'
          RETURNING ${columns}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toEvent)),
          orUnavailable("inboundEvents.claim")
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
        sql<Row>`SELECT ${columns} FROM inbound_events WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toEvent)),
          orUnavailable("inboundEvents.find")
        ),
      listParked: (page) =>
        sql<Row>`
          SELECT ${columns} FROM inbound_events
          WHERE status = 'parked' ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (received_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY received_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          orUnavailable("inboundEvents.listParked")
        )
    })
  })
)

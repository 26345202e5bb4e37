import { type DomainEvent, type TeamId, WebhookDeliveriesRepo, type WebhookDelivery } from "@svc/domain"
import { Array as Arr, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { deletedCount, iso, orUnavailable } from "../shared/index.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly endpointId: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly status: WebhookDelivery["status"]
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly redeliveryOf: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly deliveredAt: Date | null
}

interface EventRow {
  readonly id: string
  readonly teamId: string
  readonly mode: DomainEvent["mode"]
  readonly type: string
  readonly data: Record<string, unknown> | string
  readonly createdAt: Date
}

const toDelivery = (r: Row): WebhookDelivery => ({
  id: r.id,
  teamId: r.teamId as TeamId,
  endpointId: r.endpointId,
  eventId: r.eventId,
  eventType: r.eventType,
  body: r.body,
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: iso(r.nextAttemptAt),
  lastStatusCode: r.lastStatusCode === null ? null : Number(r.lastStatusCode),
  lastError: r.lastError,
  redeliveryOf: r.redeliveryOf,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
  deliveredAt: r.deliveredAt === null ? null : iso(r.deliveredAt)
})

/** WebhookDeliveriesRepo on Postgres: outbox rows and due deliveries are taken with FOR UPDATE SKIP LOCKED. */
export const WebhookDeliveriesRepoPg = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return WebhookDeliveriesRepo.of({
      lockUndispatchedEvents: (limit) =>
        sql<EventRow>`
          SELECT id, team_id, mode, type, data::text AS data, created_at FROM outbox_events
          WHERE webhooks_dispatched_at IS NULL
          ORDER BY created_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(
          Effect.map((rows) =>
            rows.map(
              (r): DomainEvent => ({
                id: r.id,
                teamId: r.teamId as TeamId,
                mode: r.mode,
                type: r.type,
                data: typeof r.data === "string" ? JSON.parse(r.data) : r.data,
                createdAt: iso(r.createdAt)
              })
            )
          ),
          orUnavailable("webhookDeliveries.lockUndispatchedEvents")
        ),
      markDispatched: (ids, at) =>
        ids.length === 0
          ? Effect.void
          : sql`UPDATE outbox_events SET webhooks_dispatched_at = ${at} WHERE ${sql.in("id", ids)}`.pipe(
              Effect.asVoid,
              orUnavailable("webhookDeliveries.markDispatched")
            ),
      insert: (...deliveries) => {
        const rows = deliveries.map(
          (d): Record<string, unknown> => ({
            id: d.id,
            team_id: d.teamId,
            endpoint_id: d.endpointId,
            event_id: d.eventId,
            event_type: d.eventType,
            body: d.body,
            status: d.status,
            attempts: d.attempts,
            next_attempt_at: d.nextAttemptAt,
            last_status_code: d.lastStatusCode,
            last_error: d.lastError,
            redelivery_of: d.redeliveryOf,
            created_at: d.createdAt,
            updated_at: d.updatedAt,
            delivered_at: d.deliveredAt
          })
        )
        return Arr.isArrayNonEmpty(rows)
          ? sql`INSERT INTO webhook_deliveries ${sql.insert(rows)}
                ON CONFLICT (endpoint_id, event_id) WHERE redelivery_of IS NULL DO NOTHING`.pipe(
              Effect.asVoid,
              orUnavailable("webhookDeliveries.insert")
            )
          : Effect.void
      },
      claimDue: ({ now, leaseUntil, limit }) =>
        sql<Row>`
          WITH due AS (
            SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}
          FROM due WHERE d.id = due.id
          RETURNING d.*`.pipe(
          Effect.map((rows) => rows.map(toDelivery)),
          orUnavailable("webhookDeliveries.claimDue")
        ),
      recordAttempt: (id, r) =>
        sql`UPDATE webhook_deliveries SET status = ${r.status}, attempts = ${r.attempts},
              next_attempt_at = ${r.nextAttemptAt}, last_status_code = ${r.lastStatusCode}, last_error = ${r.lastError},
              delivered_at = ${r.deliveredAt}, updated_at = ${r.updatedAt}
            WHERE id = ${id}`.pipe(Effect.asVoid, orUnavailable("webhookDeliveries.recordAttempt")),
      find: (teamId, endpointId, id) =>
        sql<Row>`SELECT * FROM webhook_deliveries
                 WHERE id = ${id} AND team_id = ${teamId} AND endpoint_id = ${endpointId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toDelivery)),
          orUnavailable("webhookDeliveries.find")
        ),
      list: (teamId, endpointId, page) =>
        sql<Row>`
          SELECT * FROM webhook_deliveries WHERE team_id = ${teamId} AND endpoint_id = ${endpointId}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toDelivery)),
          orUnavailable("webhookDeliveries.list")
        ),
      purgeFinishedBefore: (cutoff) =>
        deletedCount(
          sql,
          sql`DELETE FROM webhook_deliveries d
              WHERE d.status <> 'pending' AND d.created_at < ${cutoff}
                AND NOT EXISTS (
                  SELECT 1 FROM webhook_deliveries r
                  WHERE r.redelivery_of = d.id AND (r.status = 'pending' OR r.created_at >= ${cutoff}))`
        ).pipe(orUnavailable("webhookDeliveries.purgeFinishedBefore")),
      purgeDispatchedEvents: deletedCount(
        sql,
        sql`DELETE FROM outbox_events e
            WHERE e.webhooks_dispatched_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`
      ).pipe(orUnavailable("webhookDeliveries.purgeDispatchedEvents"))
    })
  })
)

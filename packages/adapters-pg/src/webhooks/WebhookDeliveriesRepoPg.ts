import { DomainEvent, WebhookDeliveriesRepo, WebhookDelivery } from "@svc/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, deletedCount, orUnavailable, selectCount } from "../shared/index.ts"

const DomainEventRow = Schema.Struct({ ...DomainEvent.fields, data: Schema.fromJsonString(DomainEvent.fields.data) })

/** WebhookDeliveriesRepo on Postgres: outbox rows and due deliveries are taken with FOR UPDATE SKIP LOCKED. */
export const WebhookDeliveriesRepoPg = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return WebhookDeliveriesRepo.of({
      lockUndispatchedEvents: (limit) =>
        sql`
          SELECT id, team_id, mode, type, data::text AS data, created_at FROM outbox_events
          WHERE webhooks_dispatched_at IS NULL
          ORDER BY created_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(
          orUnavailable("webhookDeliveries.lockUndispatchedEvents"),
          Effect.flatMap(decodeRows(DomainEventRow, "webhookDeliveries.lockUndispatchedEvents"))
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
        sql`
          WITH due AS (
            SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}
          FROM due WHERE d.id = due.id
          RETURNING d.*`.pipe(
          orUnavailable("webhookDeliveries.claimDue"),
          Effect.flatMap(decodeRows(WebhookDelivery, "webhookDeliveries.claimDue"))
        ),
      recordAttempt: (id, r) =>
        sql`UPDATE webhook_deliveries SET status = ${r.status}, attempts = ${r.attempts},
              next_attempt_at = ${r.nextAttemptAt}, last_status_code = ${r.lastStatusCode}, last_error = ${r.lastError},
              delivered_at = ${r.deliveredAt}, updated_at = ${r.updatedAt}
            WHERE id = ${id}`.pipe(Effect.asVoid, orUnavailable("webhookDeliveries.recordAttempt")),
      find: (teamId, endpointId, id) =>
        sql`SELECT * FROM webhook_deliveries
                 WHERE id = ${id} AND team_id = ${teamId} AND endpoint_id = ${endpointId}`.pipe(
          orUnavailable("webhookDeliveries.find"),
          Effect.flatMap(decodeFirst(WebhookDelivery, "webhookDeliveries.find"))
        ),
      list: (teamId, endpointId, page) =>
        sql`
          SELECT * FROM webhook_deliveries WHERE team_id = ${teamId} AND endpoint_id = ${endpointId}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("webhookDeliveries.list"),
          Effect.flatMap(decodeRows(WebhookDelivery, "webhookDeliveries.list"))
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
      ).pipe(orUnavailable("webhookDeliveries.purgeDispatchedEvents")),
      countDue: (now) =>
        selectCount(
          sql,
          sql`SELECT count(*) AS count FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now}`
        ).pipe(orUnavailable("webhookDeliveries.countDue"))
    })
  })
)

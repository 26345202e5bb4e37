import { type TeamId, type WebhookEndpoint, WebhookEndpointsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly url: string
  readonly eventTypes: ReadonlyArray<string> | string
  readonly enabled: boolean
  readonly disabledReason: string | null
  readonly secretSalt: string
  readonly previousSecretSalt: string | null
  readonly previousSecretExpiresAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

const toEndpoint = (r: Row): WebhookEndpoint => ({
  id: r.id,
  teamId: r.teamId as TeamId,
  url: r.url,
  eventTypes: typeof r.eventTypes === "string" ? JSON.parse(r.eventTypes) : r.eventTypes,
  enabled: r.enabled,
  disabledReason: r.disabledReason,
  secretSalt: r.secretSalt,
  previousSecretSalt: r.previousSecretSalt,
  previousSecretExpiresAt: r.previousSecretExpiresAt === null ? null : iso(r.previousSecretExpiresAt),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt)
})

/** WebhookEndpointsRepo on Postgres. */
export const WebhookEndpointsRepoPg = Layer.effect(
  WebhookEndpointsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return WebhookEndpointsRepo.of({
      insert: (e) =>
        sql`INSERT INTO webhook_endpoints (id, team_id, url, event_types, enabled, disabled_reason, secret_salt,
                                           previous_secret_salt, previous_secret_expires_at, created_at, updated_at)
            VALUES (${e.id}, ${e.teamId}, ${e.url}, ${JSON.stringify(e.eventTypes)}::jsonb, ${e.enabled},
                    ${e.disabledReason}, ${e.secretSalt}, ${e.previousSecretSalt}, ${e.previousSecretExpiresAt},
                    ${e.createdAt}, ${e.updatedAt})`.pipe(Effect.asVoid, orUnavailable("webhookEndpoints.insert")),
      update: (e) =>
        sql`UPDATE webhook_endpoints SET url = ${e.url}, event_types = ${JSON.stringify(e.eventTypes)}::jsonb,
              enabled = ${e.enabled}, disabled_reason = ${e.disabledReason}, secret_salt = ${e.secretSalt},
              previous_secret_salt = ${e.previousSecretSalt}, previous_secret_expires_at = ${e.previousSecretExpiresAt},
              updated_at = ${e.updatedAt}
            WHERE id = ${e.id} AND team_id = ${e.teamId}`.pipe(Effect.asVoid, orUnavailable("webhookEndpoints.update")),
      find: (teamId, id) =>
        sql<Row>`SELECT * FROM webhook_endpoints WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toEndpoint)),
          orUnavailable("webhookEndpoints.find")
        ),
      list: (teamId, page) =>
        sql<Row>`
          SELECT * FROM webhook_endpoints WHERE team_id = ${teamId} ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toEndpoint)),
          orUnavailable("webhookEndpoints.list")
        ),
      listEnabled: (teamIds) =>
        (teamIds.length === 0
          ? Effect.succeed<ReadonlyArray<Row>>([])
          : sql<Row>`SELECT * FROM webhook_endpoints WHERE ${sql.in("team_id", teamIds)} AND enabled ORDER BY created_at, id`
        ).pipe(
          Effect.map((rows) => rows.map(toEndpoint)),
          orUnavailable("webhookEndpoints.listEnabled")
        )
    })
  })
)

import { WebhookEndpoint, WebhookEndpointsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

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
        sql`SELECT * FROM webhook_endpoints WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("webhookEndpoints.find"),
          Effect.flatMap(decodeFirst(WebhookEndpoint, "webhookEndpoints.find"))
        ),
      list: (teamId, page) =>
        sql`
          SELECT * FROM webhook_endpoints WHERE team_id = ${teamId} ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("webhookEndpoints.list"),
          Effect.flatMap(decodeRows(WebhookEndpoint, "webhookEndpoints.list"))
        ),
      listEnabled: (teamIds) =>
        (teamIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT * FROM webhook_endpoints WHERE ${sql.in("team_id", teamIds)} AND enabled ORDER BY created_at, id`
        ).pipe(
          orUnavailable("webhookEndpoints.listEnabled"),
          Effect.flatMap(decodeRows(WebhookEndpoint, "webhookEndpoints.listEnabled"))
        )
    })
  })
)

import { DashboardSession, DashboardSessionsRepo, QueuedLinkRequest, roomForLink, UserId } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  decodeFirst,
  decodeRows,
  deletedCount,
  inTransaction,
  orUnavailable,
  SafeIntegerColumn
} from "../shared/index.ts"

const UserRow = Schema.Struct({ userId: UserId })
const IdRow = Schema.Struct({ id: Schema.String })
const CountsRow = Schema.Struct({ fromClient: SafeIntegerColumn, total: SafeIntegerColumn })

/**
 * DashboardSessionsRepo on Postgres: link requests are a queue taken with SKIP LOCKED, so concurrent passes never take
 * one twice; a link is consumed by one conditional update, so of concurrent uses one wins.
 */
export const DashboardSessionsRepoPg = Layer.effect(
  DashboardSessionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(
      "id, token_hash, user_id, csrf_token, created_at, expires_at, revoked_at, name, preview"
    )
    return DashboardSessionsRepo.of({
      enqueueLinkRequest: (r) =>
        sql`INSERT INTO sign_in_link_requests (email, requested_from, requested_at)
            VALUES (${r.email}, ${r.requestedFrom}, ${r.requestedAt})`.pipe(
          Effect.asVoid,
          orUnavailable("signInLinkRequests.enqueue")
        ),
      takeLinkRequest: sql`DELETE FROM sign_in_link_requests
          WHERE id = (SELECT id FROM sign_in_link_requests ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING email, requested_from, requested_at`.pipe(
        orUnavailable("signInLinkRequests.take"),
        Effect.flatMap(decodeFirst(QueuedLinkRequest, "signInLinkRequests.take"))
      ),
      insertLink: (l, limits) =>
        Effect.gen(function* () {
          // The user's row lock orders concurrent requests for one address: each counts after the last one stored.
          yield* sql`SELECT id FROM users WHERE id = ${l.userId} FOR UPDATE`
          const recent = yield* sql`SELECT count(*) FILTER (WHERE requested_from = ${l.requestedFrom}) AS from_client,
                                           count(*) AS total
                                    FROM sign_in_links
                                    WHERE user_id = ${l.userId} AND created_at >= ${limits.since}`.pipe(
            Effect.flatMap(decodeFirst(CountsRow, "signInLinks.insert"))
          )
          const counts = Option.getOrElse(recent, () => ({ fromClient: 0, total: 0 }))
          if (!roomForLink(counts, limits)) return false
          yield* sql`INSERT INTO sign_in_links
                       (token_hash, user_id, requested_from, expires_at, consumed_at, created_at)
                     VALUES (${l.tokenHash}, ${l.userId}, ${l.requestedFrom}, ${l.expiresAt}, ${l.consumedAt},
                             ${l.createdAt})`
          return true
        }).pipe(inTransaction(sql, "signInLinks.insert")),
      consumeLink: (tokenHash, at) =>
        sql`UPDATE sign_in_links SET consumed_at = ${at}
            WHERE token_hash = ${tokenHash} AND consumed_at IS NULL AND expires_at > ${at}
            RETURNING user_id`.pipe(
          orUnavailable("signInLinks.consume"),
          Effect.flatMap(decodeFirst(UserRow, "signInLinks.consume")),
          Effect.map(Option.map((row) => row.userId))
        ),
      insertSession: (s) =>
        sql`INSERT INTO dashboard_sessions
              (id, token_hash, user_id, csrf_token, created_at, expires_at, revoked_at, name, preview)
            VALUES (${s.id}, ${s.tokenHash}, ${s.userId}, ${s.csrfToken}, ${s.createdAt}, ${s.expiresAt},
                    ${s.revokedAt}, ${s.name}, ${s.preview})`.pipe(
          Effect.asVoid,
          orUnavailable("dashboardSessions.insert")
        ),
      findSession: (tokenHash) =>
        sql`SELECT ${columns} FROM dashboard_sessions WHERE token_hash = ${tokenHash}`.pipe(
          orUnavailable("dashboardSessions.find"),
          Effect.flatMap(decodeFirst(DashboardSession, "dashboardSessions.find"))
        ),
      listPersonalTokens: (userId, at) =>
        sql`SELECT ${columns} FROM dashboard_sessions
            WHERE user_id = ${userId} AND name IS NOT NULL AND revoked_at IS NULL AND expires_at > ${at}
            ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("dashboardSessions.listPersonalTokens"),
          Effect.flatMap(decodeRows(DashboardSession, "dashboardSessions.listPersonalTokens"))
        ),
      revokeSession: (id, at) =>
        sql`UPDATE dashboard_sessions SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`.pipe(
          orUnavailable("dashboardSessions.revoke"),
          Effect.flatMap(decodeRows(IdRow, "dashboardSessions.revoke")),
          Effect.map((rows) => rows.length > 0)
        ),
      purgeEndedBefore: (cutoff) =>
        Effect.all([
          deletedCount(sql, sql`DELETE FROM sign_in_links WHERE expires_at < ${cutoff}`),
          deletedCount(sql, sql`DELETE FROM dashboard_sessions WHERE expires_at < ${cutoff} OR revoked_at < ${cutoff}`)
        ]).pipe(
          Effect.map(([links, sessions]) => links + sessions),
          orUnavailable("dashboardSessions.purgeEndedBefore")
        )
    })
  })
)

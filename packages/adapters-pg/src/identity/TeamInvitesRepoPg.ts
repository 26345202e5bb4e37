import { TeamInvite, TeamInvitesRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const IdRow = Schema.Struct({ id: Schema.String })

/** TeamInvitesRepo on Postgres: acceptance is a conditional update, so of concurrent acceptances one wins. */
export const TeamInvitesRepoPg = Layer.effect(
  TeamInvitesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return TeamInvitesRepo.of({
      insert: (i) =>
        sql`INSERT INTO team_invites (id, team_id, email, role, token_hash, invited_by, expires_at, accepted_at,
                                      accepted_by, created_at)
            VALUES (${i.id}, ${i.teamId}, ${i.email}, ${i.role}, ${i.tokenHash}, ${i.invitedBy}, ${i.expiresAt},
                    ${i.acceptedAt}, ${i.acceptedBy}, ${i.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("teamInvites.insert")
        ),
      findByTokenHash: (hash) =>
        sql`SELECT * FROM team_invites WHERE token_hash = ${hash}`.pipe(
          orUnavailable("teamInvites.findByTokenHash"),
          Effect.flatMap(decodeFirst(TeamInvite, "teamInvites.findByTokenHash"))
        ),
      hasPendingFor: (email, at) =>
        sql`SELECT id FROM team_invites
            WHERE lower(email) = lower(${email}) AND accepted_at IS NULL AND expires_at > ${at}
            LIMIT 1`.pipe(
          orUnavailable("teamInvites.hasPendingFor"),
          Effect.flatMap(decodeRows(IdRow, "teamInvites.hasPendingFor")),
          Effect.map((rows) => rows.length > 0)
        ),
      listForTeam: (teamId) =>
        sql`SELECT * FROM team_invites WHERE team_id = ${teamId} ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("teamInvites.listForTeam"),
          Effect.flatMap(decodeRows(TeamInvite, "teamInvites.listForTeam"))
        ),
      markAccepted: (id, userId, at) =>
        sql`UPDATE team_invites SET accepted_at = ${at}, accepted_by = ${userId}
            WHERE id = ${id} AND accepted_at IS NULL AND expires_at > ${at}
            RETURNING id`.pipe(
          orUnavailable("teamInvites.markAccepted"),
          Effect.flatMap(decodeRows(IdRow, "teamInvites.markAccepted")),
          Effect.map((rows) => rows.length > 0)
        )
    })
  })
)

import { type Membership, Role, Team, TeamMember, TeamsRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const ChangedRow = Schema.Struct({ userId: Schema.String })

const MembershipRow = Schema.Struct({ ...Team.fields, role: Role })

const RoleRow = Schema.Struct({ role: Role })

const toMembership = ({ role, ...team }: typeof MembershipRow.Type): Membership => ({ team, role })

/** TeamsRepo on Postgres. */
export const TeamsRepoPg = Layer.effect(
  TeamsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return TeamsRepo.of({
      insert: (team) =>
        sql`INSERT INTO teams (id, name, base_currency, created_at)
            VALUES (${team.id}, ${team.name}, ${team.baseCurrency}, ${team.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("teams.insert")
        ),
      findById: (teamId) =>
        sql`SELECT id, name, base_currency, created_at FROM teams WHERE id = ${teamId}`.pipe(
          orUnavailable("teams.findById"),
          Effect.flatMap(decodeFirst(Team, "teams.findById"))
        ),
      addMember: (teamId, userId, role) =>
        sql`INSERT INTO team_members (team_id, user_id, role) VALUES (${teamId}, ${userId}, ${role})
            ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          Effect.asVoid,
          orUnavailable("teams.addMember")
        ),
      listForUser: (userId) =>
        sql`
          SELECT t.id, t.name, t.base_currency, t.created_at, m.role
          FROM team_members m JOIN teams t ON t.id = m.team_id
          WHERE m.user_id = ${userId}
          ORDER BY t.created_at DESC, t.id DESC`.pipe(
          orUnavailable("teams.listForUser"),
          Effect.flatMap(decodeRows(MembershipRow, "teams.listForUser")),
          Effect.map((rows) => rows.map(toMembership))
        ),
      membership: (teamId, userId) =>
        sql`
          SELECT t.id, t.name, t.base_currency, t.created_at, m.role
          FROM team_members m JOIN teams t ON t.id = m.team_id
          WHERE m.team_id = ${teamId} AND m.user_id = ${userId}`.pipe(
          orUnavailable("teams.membership"),
          Effect.flatMap(decodeFirst(MembershipRow, "teams.membership")),
          Effect.map(Option.map(toMembership))
        ),
      memberRoles: (teamId) =>
        sql`SELECT role FROM team_members WHERE team_id = ${teamId}`.pipe(
          orUnavailable("teams.memberRoles"),
          Effect.flatMap(decodeRows(RoleRow, "teams.memberRoles")),
          Effect.map((rows) => rows.map((row) => row.role))
        ),
      update: (team) =>
        sql`UPDATE teams SET name = ${team.name}, base_currency = ${team.baseCurrency} WHERE id = ${team.id}`.pipe(
          Effect.asVoid,
          orUnavailable("teams.update")
        ),
      lockTeam: (teamId) =>
        sql`SELECT id FROM teams WHERE id = ${teamId} FOR UPDATE`.pipe(Effect.asVoid, orUnavailable("teams.lockTeam")),
      members: (teamId) =>
        sql`
          SELECT u.id AS user_id, u.email, u.full_name, m.role, m.created_at AS joined_at
          FROM team_members m JOIN users u ON u.id = m.user_id
          WHERE m.team_id = ${teamId}
          ORDER BY m.created_at, u.id`.pipe(
          orUnavailable("teams.members"),
          Effect.flatMap(decodeRows(TeamMember, "teams.members"))
        ),
      setRole: (teamId, userId, role) =>
        sql`UPDATE team_members SET role = ${role} WHERE team_id = ${teamId} AND user_id = ${userId}
            RETURNING user_id`.pipe(
          orUnavailable("teams.setRole"),
          Effect.flatMap(decodeRows(ChangedRow, "teams.setRole")),
          Effect.map((rows) => rows.length > 0)
        ),
      removeMember: (teamId, userId) =>
        sql`
          WITH removed AS (
            DELETE FROM team_members WHERE team_id = ${teamId} AND user_id = ${userId} RETURNING user_id
          ), cleared AS (
            UPDATE users SET current_team_id = NULL
            WHERE id IN (SELECT user_id FROM removed) AND current_team_id = ${teamId}
          )
          SELECT user_id FROM removed`.pipe(
          orUnavailable("teams.removeMember"),
          Effect.flatMap(decodeRows(ChangedRow, "teams.removeMember")),
          Effect.map((rows) => rows.length > 0)
        )
    })
  })
)

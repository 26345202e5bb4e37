import { type Membership, type Role, type TeamId, TeamsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface MembershipRow {
  readonly id: string
  readonly name: string
  readonly baseCurrency: string
  readonly createdAt: Date
  readonly role: Role
}

const toMembership = (row: MembershipRow): Membership => ({
  team: { id: row.id as TeamId, name: row.name, baseCurrency: row.baseCurrency, createdAt: iso(row.createdAt) },
  role: row.role
})

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
        sql<
          Omit<MembershipRow, "role">
        >`SELECT id, name, base_currency, created_at FROM teams WHERE id = ${teamId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => toMembership({ ...row, role: "member" }).team)
          ),
          orUnavailable("teams.findById")
        ),
      addMember: (teamId, userId, role) =>
        sql`INSERT INTO team_members (team_id, user_id, role) VALUES (${teamId}, ${userId}, ${role})
            ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          Effect.asVoid,
          orUnavailable("teams.addMember")
        ),
      listForUser: (userId) =>
        sql<MembershipRow>`
          SELECT t.id, t.name, t.base_currency, t.created_at, m.role
          FROM team_members m JOIN teams t ON t.id = m.team_id
          WHERE m.user_id = ${userId}
          ORDER BY t.created_at DESC, t.id DESC`.pipe(
          Effect.map((rows) => rows.map(toMembership)),
          orUnavailable("teams.listForUser")
        ),
      membership: (teamId, userId) =>
        sql<MembershipRow>`
          SELECT t.id, t.name, t.base_currency, t.created_at, m.role
          FROM team_members m JOIN teams t ON t.id = m.team_id
          WHERE m.team_id = ${teamId} AND m.user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toMembership)),
          orUnavailable("teams.membership")
        )
    })
  })
)

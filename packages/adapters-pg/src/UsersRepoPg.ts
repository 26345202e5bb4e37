import { type TeamId, type User, type UserId, UsersRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "./Sql.ts"

interface UserRow {
  readonly id: string
  readonly email: string
  readonly fullName: string | null
  readonly currentTeamId: string | null
  readonly createdAt: Date
}

const toUser = (row: UserRow): User => ({
  id: row.id as UserId,
  email: row.email,
  fullName: row.fullName,
  currentTeamId: row.currentTeamId as TeamId | null,
  createdAt: iso(row.createdAt)
})

/** UsersRepo on Postgres. */
export const UsersRepoPg = Layer.effect(
  UsersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return UsersRepo.of({
      ensure: (identity) =>
        sql<UserRow>`
          WITH inserted AS (
            INSERT INTO users (id, email, full_name) VALUES (${identity.id}, ${identity.email}, ${identity.fullName})
            ON CONFLICT (id) DO NOTHING
            RETURNING id, email, full_name, current_team_id, created_at
          )
          SELECT * FROM inserted UNION ALL
          SELECT id, email, full_name, current_team_id, created_at FROM users WHERE id = ${identity.id}
          LIMIT 1`.pipe(
          Effect.map((rows) => toUser(rows[0]!)),
          orUnavailable("users.ensure")
        ),
      findById: (id) =>
        sql<UserRow>`SELECT id, email, full_name, current_team_id, created_at FROM users WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toUser)),
          orUnavailable("users.findById")
        ),
      setCurrentTeam: (id, teamId) =>
        sql`UPDATE users SET current_team_id = ${teamId} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          orUnavailable("users.setCurrentTeam")
        )
    })
  })
)

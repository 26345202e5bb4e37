import { type TeamId, type User, type UserId, UsersRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

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
    const select = (id: string) =>
      sql<UserRow>`SELECT id, email, full_name, current_team_id, created_at FROM users WHERE id = ${id}`
    return UsersRepo.of({
      ensure: (identity) =>
        Effect.gen(function* () {
          const inserted = yield* sql<UserRow>`
            INSERT INTO users (id, email, full_name) VALUES (${identity.id}, ${identity.email}, ${identity.fullName})
            ON CONFLICT (id) DO NOTHING
            RETURNING id, email, full_name, current_team_id, created_at`
          if (inserted[0] !== undefined) return toUser(inserted[0])
          const existing = yield* select(identity.id)
          if (existing[0] === undefined)
            return yield* Effect.die(`user ${identity.id} vanished after a conflicting insert`)
          return toUser(existing[0])
        }).pipe(orUnavailable("users.ensure")),
      findById: (id) =>
        select(id).pipe(
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

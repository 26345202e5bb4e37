import { User, UsersRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

const COLUMNS = "id, email, full_name, current_team_id, created_at"

/** UsersRepo on Postgres. */
export const UsersRepoPg = Layer.effect(
  UsersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const findById = (id: string) =>
      sql`SELECT ${columns} FROM users WHERE id = ${id}`.pipe(
        orUnavailable("users.findById"),
        Effect.flatMap(decodeFirst(User, "users.findById"))
      )
    return UsersRepo.of({
      ensure: (identity) =>
        sql`INSERT INTO users (id, email, full_name) VALUES (${identity.id}, ${identity.email}, ${identity.fullName})
            ON CONFLICT (id) DO NOTHING
            RETURNING ${columns}`.pipe(
          orUnavailable("users.ensure"),
          Effect.flatMap(decodeFirst(User, "users.ensure")),
          Effect.flatMap(
            Option.match({
              onSome: Effect.succeed,
              onNone: () =>
                findById(identity.id).pipe(
                  Effect.flatMap(
                    Option.match({
                      onSome: Effect.succeed,
                      onNone: () => Effect.die(`user ${identity.id} vanished after a conflicting insert`)
                    })
                  )
                )
            })
          )
        ),
      findById,
      findByEmail: (email) =>
        sql`SELECT ${columns} FROM users WHERE lower(email) = lower(${email}) ORDER BY created_at, id LIMIT 1`.pipe(
          orUnavailable("users.findByEmail"),
          Effect.flatMap(decodeFirst(User, "users.findByEmail"))
        ),
      updateProfile: (id, patch) =>
        patch.fullName === undefined
          ? findById(id)
          : sql`UPDATE users SET full_name = ${patch.fullName} WHERE id = ${id} RETURNING ${columns}`.pipe(
              orUnavailable("users.updateProfile"),
              Effect.flatMap(decodeFirst(User, "users.updateProfile"))
            ),
      setCurrentTeam: (id, teamId) =>
        sql`UPDATE users SET current_team_id = ${teamId} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          orUnavailable("users.setCurrentTeam")
        )
    })
  })
)

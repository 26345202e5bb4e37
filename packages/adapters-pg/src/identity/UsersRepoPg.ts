import { User, type UserProfilePatch, UsersRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, email, full_name, current_team_id, created_at, locale, timezone, timezone_auto_sync, week_starts_on_monday, " +
  "time_format, date_format"

/** The column of each field a user may change. */
const PROFILE_COLUMNS: Record<keyof UserProfilePatch, string> = {
  fullName: "full_name",
  locale: "locale",
  timezone: "timezone",
  timezoneAutoSync: "timezone_auto_sync",
  weekStartsOnMonday: "week_starts_on_monday",
  timeFormat: "time_format",
  dateFormat: "date_format"
}

/** The columns the patch sets, each to its given value (null clears it). */
const profileChanges = (patch: UserProfilePatch): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(PROFILE_COLUMNS).flatMap(([field, column]) => {
      const value = patch[field as keyof UserProfilePatch]
      return value === undefined ? [] : [[column, value]]
    })
  )

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
      updateProfile: (id, patch) => {
        const changes = profileChanges(patch)
        return Object.keys(changes).length === 0
          ? findById(id)
          : sql`UPDATE users SET ${sql.update(changes)} WHERE id = ${id} RETURNING ${columns}`.pipe(
              orUnavailable("users.updateProfile"),
              Effect.flatMap(decodeFirst(User, "users.updateProfile"))
            )
      },
      setCurrentTeam: (id, teamId) =>
        sql`UPDATE users SET current_team_id = ${teamId} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          orUnavailable("users.setCurrentTeam")
        )
    })
  })
)

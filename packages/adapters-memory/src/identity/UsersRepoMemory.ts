import type { TeamId, UserId } from "@svc/domain"
import { nowIso, type User, UsersRepo, withProfile } from "@svc/domain"
import { Context, Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** The in-memory users table, shared with the teams repository (which reads members' users). */
export class UsersTable extends Context.Service<UsersTable, Ref.Ref<HashMap.HashMap<UserId, User>>>()(
  "@svc/adapters-memory/UsersTable"
) {}

/** UsersRepo over the in-memory store. */
export const UsersRepoMemory = Layer.effectContext(
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const users = yield* store.table(HashMap.empty<UserId, User>())
    return Context.make(UsersTable, users).pipe(
      Context.add(
        UsersRepo,
        UsersRepo.of({
          ensure: (identity) =>
            Effect.flatMap(nowIso, (createdAt) =>
              store.atomically(
                Ref.modify(users, (map) =>
                  Option.match(HashMap.get(map, identity.id), {
                    onSome: (user) => [user, map] as const,
                    onNone: () => {
                      const user: User = {
                        id: identity.id,
                        email: identity.email,
                        fullName: identity.fullName,
                        currentTeamId: null,
                        createdAt,
                        locale: null,
                        timezone: null,
                        timezoneAutoSync: null,
                        weekStartsOnMonday: null,
                        timeFormat: null,
                        dateFormat: null
                      }
                      return [user, HashMap.set(map, user.id, user)] as const
                    }
                  })
                )
              )
            ),
          findById: (id) => Ref.get(users).pipe(Effect.map(HashMap.get(id))),
          findByEmail: (email) =>
            Ref.get(users).pipe(
              Effect.map((map) =>
                Option.fromNullishOr(
                  [...HashMap.values(map)]
                    .filter((user) => user.email.toLowerCase() === email.toLowerCase())
                    .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))[0]
                )
              )
            ),
          setCurrentTeam: (id: UserId, teamId: TeamId) =>
            store.atomically(
              Ref.update(
                users,
                HashMap.modify(id, (user) => ({ ...user, currentTeamId: teamId }))
              )
            ),
          updateProfile: (id, patch) =>
            store.atomically(
              Ref.modify(users, (map) => {
                const user = HashMap.get(map, id)
                if (Option.isNone(user)) return [user, map] as const
                const next = withProfile(user.value, patch)
                return [Option.some(next), HashMap.set(map, id, next)] as const
              })
            )
        })
      )
    )
  })
)

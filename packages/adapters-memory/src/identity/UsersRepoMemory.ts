import type { TeamId, UserId } from "@svc/domain"
import { nowIso, type User, UsersRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** UsersRepo over the in-memory store. */
export const UsersRepoMemory = Layer.effect(
  UsersRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const users = yield* store.table(HashMap.empty<UserId, User>())
    return UsersRepo.of({
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
                    createdAt
                  }
                  return [user, HashMap.set(map, user.id, user)] as const
                }
              })
            )
          )
        ),
      findById: (id) => Ref.get(users).pipe(Effect.map(HashMap.get(id))),
      setCurrentTeam: (id: UserId, teamId: TeamId) =>
        store.atomically(
          Ref.update(
            users,
            HashMap.modify(id, (user) => ({ ...user, currentTeamId: teamId }))
          )
        )
    })
  })
)

import type { TeamId, UserId } from "@svc/domain"
import { nowIso, type Role, type Team, type TeamMember, TeamsRepo } from "@svc/domain"
import { Array as Arr, Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"
import { UsersRepoMemory, UsersTable } from "./UsersRepoMemory.ts"

interface MemberRow {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly role: Role
  readonly joinedAt: string
}

/** TeamsRepo over the in-memory store. */
export const TeamsRepoMemory = Layer.effect(
  TeamsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const users = yield* UsersTable
    const teams = yield* store.table(HashMap.empty<TeamId, Team>())
    const members = yield* store.table<ReadonlyArray<MemberRow>>([])
    const withTeam = (row: MemberRow) =>
      Ref.get(teams).pipe(
        Effect.map((map) => Option.map(HashMap.get(map, row.teamId), (team) => ({ team, role: row.role })))
      )
    return TeamsRepo.of({
      insert: (team) => store.atomically(Ref.update(teams, HashMap.set(team.id, team))),
      findById: (teamId) => Ref.get(teams).pipe(Effect.map(HashMap.get(teamId))),
      addMember: (teamId, userId, role) =>
        Effect.flatMap(nowIso, (now) =>
          store.atomically(
            Ref.update(members, (rows) => {
              const existing = rows.find((r) => r.teamId === teamId && r.userId === userId)
              return [
                ...rows.filter((r) => r !== existing),
                { teamId, userId, role, joinedAt: existing?.joinedAt ?? now }
              ]
            })
          )
        ),
      listForUser: (userId) =>
        Ref.get(members).pipe(
          Effect.flatMap((rows) =>
            Effect.forEach(
              rows.filter((r) => r.userId === userId),
              withTeam
            )
          ),
          Effect.map(Arr.getSomes),
          Effect.map((list) => list.toSorted((a, b) => (a.team.createdAt < b.team.createdAt ? 1 : -1)))
        ),
      membership: (teamId, userId) =>
        Ref.get(members).pipe(
          Effect.flatMap((rows) =>
            Option.match(Option.fromNullishOr(rows.find((r) => r.teamId === teamId && r.userId === userId)), {
              onNone: () => Effect.succeed(Option.none()),
              onSome: withTeam
            })
          )
        ),
      memberRoles: (teamId) =>
        Ref.get(members).pipe(Effect.map((rows) => rows.filter((r) => r.teamId === teamId).map((r) => r.role))),
      update: (team) => store.atomically(Ref.update(teams, HashMap.set(team.id, team))),
      lockTeam: () => Effect.void,
      members: (teamId) =>
        Effect.gen(function* () {
          const userMap = yield* Ref.get(users)
          return (yield* Ref.get(members))
            .filter((r) => r.teamId === teamId)
            .flatMap((r): ReadonlyArray<TeamMember> => {
              const user = HashMap.get(userMap, r.userId)
              return Option.isNone(user)
                ? []
                : [
                    {
                      userId: r.userId,
                      email: user.value.email,
                      fullName: user.value.fullName,
                      role: r.role,
                      joinedAt: r.joinedAt
                    }
                  ]
            })
            .toSorted((a, b) =>
              a.joinedAt === b.joinedAt ? (a.userId < b.userId ? -1 : 1) : a.joinedAt < b.joinedAt ? -1 : 1
            )
        }),
      setRole: (teamId, userId, role) =>
        store.atomically(
          Ref.modify(members, (rows) => {
            const found = rows.some((r) => r.teamId === teamId && r.userId === userId)
            return [found, rows.map((r) => (r.teamId === teamId && r.userId === userId ? { ...r, role } : r))] as const
          })
        ),
      removeMember: (teamId, userId) =>
        store.atomically(
          Effect.gen(function* () {
            const found = yield* Ref.modify(members, (rows) => {
              const kept = rows.filter((r) => !(r.teamId === teamId && r.userId === userId))
              return [kept.length < rows.length, kept] as const
            })
            if (found) {
              yield* Ref.update(
                users,
                HashMap.modify(userId, (user) =>
                  user.currentTeamId === teamId ? { ...user, currentTeamId: null } : user
                )
              )
            }
            return found
          })
        )
    })
  })
).pipe(Layer.provide(UsersRepoMemory))

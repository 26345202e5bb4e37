import type { TeamId, UserId } from "@svc/domain"
import { type Role, type Team, TeamsRepo } from "@svc/domain"
import { Array as Arr, Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

interface MemberRow {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly role: Role
}

/** TeamsRepo over the in-memory store. */
export const TeamsRepoMemory = Layer.effect(
  TeamsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
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
        store.atomically(
          Ref.update(members, (rows) => [
            ...rows.filter((r) => !(r.teamId === teamId && r.userId === userId)),
            { teamId, userId, role }
          ])
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
        Ref.get(members).pipe(Effect.map((rows) => rows.filter((r) => r.teamId === teamId).map((r) => r.role)))
    })
  })
)

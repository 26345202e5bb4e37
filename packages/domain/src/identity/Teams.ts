import { Context, Effect, Layer, Option, Schema } from "effect"
import type { PersistenceUnavailable, TeamId, UserId } from "../shared/model.ts"
import type { TeamMember } from "./Member.ts"
import type { Membership, Role, Team } from "./Team.ts"
import type { User } from "./User.ts"

/** The user is not a member of that team (or it does not exist). */
export class TeamNotFound extends Schema.TaggedError<TeamNotFound>()("TeamNotFound", { teamId: Schema.String }) {}

/** Storage of teams and memberships. */
export class TeamsRepo extends Context.Service<
  TeamsRepo,
  {
    readonly insert: (team: Team) => Effect.Effect<void, PersistenceUnavailable>
    readonly findById: (teamId: TeamId) => Effect.Effect<Option.Option<Team>, PersistenceUnavailable>
    readonly addMember: (teamId: TeamId, userId: UserId, role: Role) => Effect.Effect<void, PersistenceUnavailable>
    readonly listForUser: (userId: UserId) => Effect.Effect<ReadonlyArray<Membership>, PersistenceUnavailable>
    readonly membership: (
      teamId: TeamId,
      userId: UserId
    ) => Effect.Effect<Option.Option<Membership>, PersistenceUnavailable>
    /** The role of every member of the team. */
    readonly memberRoles: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Role>, PersistenceUnavailable>
    /** Replaces the team's name and base currency. */
    readonly update: (team: Team) => Effect.Effect<void, PersistenceUnavailable>
    /** Locks the team's row until the transaction ends: membership changes of one team run one at a time. */
    readonly lockTeam: (teamId: TeamId) => Effect.Effect<void, PersistenceUnavailable>
    /** Every member of the team with their user, oldest member first. */
    readonly members: (teamId: TeamId) => Effect.Effect<ReadonlyArray<TeamMember>, PersistenceUnavailable>
    /** Changes a member's role; false when the user is not a member. */
    readonly setRole: (teamId: TeamId, userId: UserId, role: Role) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Removes a member (and clears the team as their current team); false when the user is not a member. */
    readonly removeMember: (teamId: TeamId, userId: UserId) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/TeamsRepo") {}

/** Teams: membership checks (a new team is opened by `TeamOpening`). */
export class Teams extends Context.Service<
  Teams,
  {
    readonly listForUser: (userId: UserId) => Effect.Effect<ReadonlyArray<Membership>, PersistenceUnavailable>
    /** The caller's membership in a team; TeamNotFound when they are not a member. */
    readonly membership: (
      teamId: TeamId,
      userId: UserId
    ) => Effect.Effect<Membership, TeamNotFound | PersistenceUnavailable>
    /** Whether a team with this id exists. */
    readonly exists: (teamId: TeamId) => Effect.Effect<boolean, PersistenceUnavailable>
    /** The user's current team, if they have one. */
    readonly current: (user: User) => Effect.Effect<Option.Option<Membership>, PersistenceUnavailable>
  }
>()("@svc/domain/Teams") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* TeamsRepo

    const membership = Effect.fn("Teams.membership")(function* (teamId: TeamId, userId: UserId) {
      const found = yield* repo.membership(teamId, userId)
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new TeamNotFound({ teamId })),
        onSome: Effect.succeed
      })
    })

    const current = Effect.fn("Teams.current")(function* (user: User) {
      if (user.currentTeamId === null) return Option.none<Membership>()
      return yield* repo.membership(user.currentTeamId, user.id)
    })

    const exists = (teamId: TeamId) => repo.findById(teamId).pipe(Effect.map(Option.isSome))

    return Teams.of({ listForUser: repo.listForUser, membership, exists, current })
  })
  static readonly layer = Layer.effect(Teams, Teams.make)
}

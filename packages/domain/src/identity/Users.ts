import { Context, Effect, Layer, type Option } from "effect"
import type { PersistenceUnavailable, TeamId, UserId } from "../shared/index.ts"
import type { User } from "./User.ts"

/** The verified identity a session token carries. */
export interface SessionIdentity {
  readonly id: UserId
  readonly email: string
  readonly fullName: string | null
}

/** Storage of users. */
export class UsersRepo extends Context.Service<
  UsersRepo,
  {
    /** Inserts the user when absent and returns the stored row either way. */
    readonly ensure: (identity: SessionIdentity) => Effect.Effect<User, PersistenceUnavailable>
    readonly findById: (id: UserId) => Effect.Effect<Option.Option<User>, PersistenceUnavailable>
    readonly setCurrentTeam: (id: UserId, teamId: TeamId) => Effect.Effect<void, PersistenceUnavailable>
  }
>()("@svc/domain/UsersRepo") {}

/** Users: provisioning from a verified session. */
export class Users extends Context.Service<
  Users,
  {
    /** The user behind a verified session, created on first use. */
    readonly provision: (identity: SessionIdentity) => Effect.Effect<User, PersistenceUnavailable>
  }
>()("@svc/domain/Users") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* UsersRepo
    return Users.of({ provision: Effect.fn("Users.provision")((identity: SessionIdentity) => repo.ensure(identity)) })
  })
  static readonly layer = Layer.effect(Users, Users.make)
}

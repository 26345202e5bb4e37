import { Context, Effect, Layer, type Option } from "effect"
import type { PersistenceUnavailable, TeamId, UserId } from "../shared/model.ts"
import type { User, UserPreferences } from "./User.ts"

/** The verified identity a session token carries. */
export interface SessionIdentity {
  readonly id: UserId
  readonly email: string
  readonly fullName: string | null
}

/** What a user may change about themselves: each field given replaces the stored one, null clears it. */
export type UserProfilePatch = {
  readonly fullName?: string | null | undefined
} & { readonly [K in keyof UserPreferences]?: UserPreferences[K] | undefined }

/** Storage of users. */
export class UsersRepo extends Context.Service<
  UsersRepo,
  {
    /** Inserts the user when absent and returns the stored row either way. */
    readonly ensure: (identity: SessionIdentity) => Effect.Effect<User, PersistenceUnavailable>
    readonly findById: (id: UserId) => Effect.Effect<Option.Option<User>, PersistenceUnavailable>
    /** The earliest user with this e-mail address, compared without case. */
    readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>, PersistenceUnavailable>
    readonly setCurrentTeam: (id: UserId, teamId: TeamId) => Effect.Effect<void, PersistenceUnavailable>
    /** Changes the user's profile; none when no such user exists. */
    readonly updateProfile: (
      id: UserId,
      patch: UserProfilePatch
    ) => Effect.Effect<Option.Option<User>, PersistenceUnavailable>
  }
>()("@svc/domain/UsersRepo") {}

/** Users: provisioning from a verified session. */
export class Users extends Context.Service<
  Users,
  {
    /** The user behind a verified session, created on first use. */
    readonly provision: (identity: SessionIdentity) => Effect.Effect<User, PersistenceUnavailable>
    /** Changes the user's own profile; none when the user no longer exists. */
    readonly updateProfile: (
      id: UserId,
      patch: UserProfilePatch
    ) => Effect.Effect<Option.Option<User>, PersistenceUnavailable>
  }
>()("@svc/domain/Users") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* UsersRepo
    return Users.of({
      provision: Effect.fn("Users.provision")((identity: SessionIdentity) => repo.ensure(identity)),
      updateProfile: Effect.fn("Users.updateProfile")((id: UserId, patch: UserProfilePatch) =>
        repo.updateProfile(id, patch)
      )
    })
  })
  static readonly layer = Layer.effect(Users, Users.make)
}

/** The user with each field of the patch given replacing the stored one. */
export const withProfile = (user: User, patch: UserProfilePatch): User => {
  const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
  return { ...user, ...given }
}

import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { AuditLogRepo } from "../audit/index.ts"
import {
  generateSecret,
  hashSecret,
  isoOfMillis,
  newIdText,
  type PersistenceUnavailable,
  Transactor
} from "../shared/index.ts"
import { type DashboardSession, DEFAULT_PERSONAL_TOKEN_DAYS } from "./DashboardSession.ts"
import { DASHBOARD_SESSION_PREFIX, DashboardSessionsRepo } from "./DashboardSignIn.ts"
import { auditSession } from "./internal/SessionAudit.ts"
import type { User } from "./User.ts"

/** No live personal token of this person has that id. */
export class PersonalTokenNotFound extends Schema.TaggedError<PersonalTokenNotFound>()("PersonalTokenNotFound", {
  id: Schema.String
}) {}

/** A personal token just created, with its raw value (shown once, never stored). */
export interface CreatedPersonalToken {
  readonly session: DashboardSession
  readonly secret: string
}

/**
 * Personal tokens (ADR 0057): a person's own bearer credential for the CLI and other tools, made in the dashboard. A
 * token is a dashboard session with a name and a longer life, so it authenticates exactly as that person's session
 * does (their current team, their role, no scopes beyond theirs) and stops at once when revoked. Created and revoked
 * in the audit chain of the person's current team.
 */
export class PersonalTokens extends Context.Service<
  PersonalTokens,
  {
    /** Creates a token for `user` working `days` days; its raw value is answered once. */
    readonly create: (
      user: User,
      input: { readonly name: string; readonly days?: number | undefined }
    ) => Effect.Effect<CreatedPersonalToken, PersistenceUnavailable>
    /** The user's tokens that still work, newest first. */
    readonly list: (user: User) => Effect.Effect<ReadonlyArray<DashboardSession>, PersistenceUnavailable>
    /** Revokes one of the user's working tokens: it stops working at once. */
    readonly revoke: (
      user: User,
      id: string
    ) => Effect.Effect<DashboardSession, PersonalTokenNotFound | PersistenceUnavailable>
  }
>()("@svc/domain/PersonalTokens") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* DashboardSessionsRepo
    const audit = yield* AuditLogRepo
    const transactor = yield* Transactor

    const live = (user: User) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => repo.listPersonalTokens(user.id, isoOfMillis(now)))

    const create = Effect.fn("PersonalTokens.create")(function* (
      user: User,
      input: { readonly name: string; readonly days?: number | undefined }
    ) {
      const secret = yield* generateSecret(DASHBOARD_SESSION_PREFIX)
      const now = yield* Clock.currentTimeMillis
      const days = input.days ?? DEFAULT_PERSONAL_TOKEN_DAYS
      const session: DashboardSession = {
        id: yield* newIdText,
        tokenHash: yield* hashSecret(secret),
        userId: user.id,
        // Never sent: a personal token is refused as a cookie, and only cookie requests are checked for CSRF.
        csrfToken: yield* generateSecret(""),
        createdAt: isoOfMillis(now),
        expiresAt: isoOfMillis(now + days * 86_400_000),
        revokedAt: null,
        name: input.name,
        preview: `${DASHBOARD_SESSION_PREFIX}…${secret.slice(-4)}`
      }
      yield* transactor.withTransaction(
        Effect.andThen(
          repo.insertSession(session),
          auditSession(audit, user, "personal_token.created", session, session.createdAt)
        )
      )
      return { session, secret }
    })

    const revoke = Effect.fn("PersonalTokens.revoke")(function* (user: User, id: string) {
      const found = Option.fromNullishOr((yield* live(user)).find((token) => token.id === id))
      if (Option.isNone(found)) return yield* new PersonalTokenNotFound({ id })
      const at = isoOfMillis(yield* Clock.currentTimeMillis)
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          if (!(yield* repo.revokeSession(id, at))) return yield* new PersonalTokenNotFound({ id })
          const revoked = { ...found.value, revokedAt: at }
          yield* auditSession(audit, user, "personal_token.revoked", revoked, at)
          return revoked
        })
      )
    })

    return PersonalTokens.of({ create, list: Effect.fn("PersonalTokens.list")(live), revoke })
  })
  static readonly layer = Layer.effect(PersonalTokens, PersonalTokens.make)
}

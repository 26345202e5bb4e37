import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import { AuditLogRepo, auditDraft } from "../audit/index.ts"
import { Mailer } from "../platform/index.ts"
import {
  constantTimeEqual,
  cutoffBefore,
  generateSecret,
  hashSecret,
  isoOfMillis,
  newIdText,
  type PersistenceUnavailable,
  periodicJob,
  Transactor,
  type UserId
} from "../shared/index.ts"
import { type DashboardSession, isSessionLive, type SignInLink } from "./DashboardSession.ts"
import { normalizeEmail } from "./Member.ts"
import type { User } from "./User.ts"
import { UsersRepo } from "./Users.ts"

/** The prefix of dashboard session tokens (the `svc_session` cookie, or a bearer token). */
export const DASHBOARD_SESSION_PREFIX = "svcsess_"

/** How long a sign-in link stays usable: 15 minutes. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60

/** How many links one address gets per link lifetime; further requests are answered alike and mail nothing. */
export const SIGN_IN_LINKS_PER_WINDOW = 5

/** A dashboard session's lifetime unless configured: 12 hours. */
export const DEFAULT_DASHBOARD_SESSION_TTL_SECONDS = 12 * 3600

/** A sign-in link token: 32 random bytes in base64url, no prefix. */
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/u

/** The sign-in link is unknown, malformed, expired or used: one error for all, so none can be told apart. */
export class InvalidSignInLink extends Schema.TaggedError<InvalidSignInLink>()("InvalidSignInLink", {}) {}

/** Storage of sign-in links and dashboard sessions, both found by the hash of their token. */
export class DashboardSessionsRepo extends Context.Service<
  DashboardSessionsRepo,
  {
    /**
     * Stores the link unless its user already has `limit.max` links created at or after `limit.since` (true when
     * stored). Concurrent calls for one user are serialized, so the bound holds however many ask at once.
     */
    readonly insertLink: (
      link: SignInLink,
      limit: { readonly since: string; readonly max: number }
    ) => Effect.Effect<boolean, PersistenceUnavailable>
    /**
     * Marks the link consumed at `at` if it is neither consumed nor expired by then, answering its user; none (and no
     * change) otherwise, so of concurrent consumptions one wins.
     */
    readonly consumeLink: (
      tokenHash: string,
      at: string
    ) => Effect.Effect<Option.Option<UserId>, PersistenceUnavailable>
    readonly insertSession: (session: DashboardSession) => Effect.Effect<void, PersistenceUnavailable>
    readonly findSession: (tokenHash: string) => Effect.Effect<Option.Option<DashboardSession>, PersistenceUnavailable>
    /** Revokes the session at `at` unless it was revoked already; true when this call revoked it. */
    readonly revokeSession: (id: string, at: string) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Deletes links expired before `cutoff` and sessions expired or revoked before it; returns how many. */
    readonly purgeEndedBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/DashboardSessionsRepo") {}

/** A background job that deletes links and sessions ended for longer than `grace`, every `interval`. */
export const DashboardSessionsPurgeJob = (options: {
  readonly grace: Duration.Input
  readonly interval: Duration.Input
}) =>
  periodicJob(
    "dashboard sessions purge",
    Effect.gen(function* () {
      const repo = yield* DashboardSessionsRepo
      return yield* repo.purgeEndedBefore(yield* cutoffBefore(options.grace))
    }),
    options.interval
  )

/** Where sign-in links point and how long sessions live. */
export interface DashboardSignInSettings {
  /** The dashboard's sign-in page; the token goes in its fragment (`#token=`), so it never reaches a server log. */
  readonly signInUrl: string
  readonly sessionTtlSeconds: number
}

/** A session just opened: the session, its raw token (set as the cookie, never stored) and its user. */
export interface OpenedSession {
  readonly session: DashboardSession
  readonly token: string
  readonly user: User
}

/** A live session and its user. */
export interface ActiveSession {
  readonly session: DashboardSession
  readonly user: User
}

/**
 * Dashboard sign-in by e-mailed one-time link (ADR 0037): request a link (answered alike for every address), consume it
 * once for a session, resolve a session token, sign out. Sign-in and sign-out are audited on the user's current team.
 */
export class DashboardSignIn extends Context.Service<
  DashboardSignIn,
  {
    /**
     * Mails a sign-in link when `email` belongs to a user with fewer than 5 links in the last 15 minutes; the same
     * work (a token drawn and hashed) and the same outcome otherwise.
     */
    readonly requestLink: (email: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Consumes the link (once, before it expires) and opens a session for its user. */
    readonly signIn: (token: string) => Effect.Effect<OpenedSession, InvalidSignInLink | PersistenceUnavailable>
    /** The live session behind a `svcsess_` token, if any. */
    readonly authenticate: (token: string) => Effect.Effect<Option.Option<ActiveSession>, PersistenceUnavailable>
    /** Revokes the session: its cookie stops working at once. */
    readonly signOut: (active: ActiveSession) => Effect.Effect<void, PersistenceUnavailable>
  }
>()("@svc/domain/DashboardSignIn") {
  static readonly make = (settings: DashboardSignInSettings) =>
    Effect.gen(function* () {
      const repo = yield* DashboardSessionsRepo
      const users = yield* UsersRepo
      const audit = yield* AuditLogRepo
      const transactor = yield* Transactor
      const mailer = yield* Mailer

      const audited = (user: User, type: string, session: DashboardSession, at: string) =>
        user.currentTeamId === null
          ? Effect.void
          : Effect.flatMap(
              auditDraft(user.currentTeamId, {
                type,
                mode: null,
                at,
                data: { userId: user.id, email: user.email, sessionId: session.id }
              }),
              (draft) => audit.append([draft])
            )

      const requestLink = Effect.fn("DashboardSignIn.requestLink")(function* (email: string) {
        const token = yield* generateSecret("")
        const tokenHash = yield* hashSecret(token)
        const user = yield* users.findByEmail(normalizeEmail(email))
        if (Option.isNone(user)) return
        const now = yield* Clock.currentTimeMillis
        const link: SignInLink = {
          tokenHash,
          userId: user.value.id,
          expiresAt: isoOfMillis(now + SIGN_IN_LINK_TTL_SECONDS * 1000),
          consumedAt: null,
          createdAt: isoOfMillis(now)
        }
        const stored = yield* repo.insertLink(link, {
          since: isoOfMillis(now - SIGN_IN_LINK_TTL_SECONDS * 1000),
          max: SIGN_IN_LINKS_PER_WINDOW
        })
        if (!stored) {
          return yield* Effect.logInfo("sign-in link not sent: too many links for this address").pipe(
            Effect.annotateLogs({ userId: user.value.id })
          )
        }
        yield* mailer.send({
          to: user.value.email,
          subject: "Your sign-in link",
          text:
            `Sign in to the dashboard with this link:\n${settings.signInUrl}#token=${token}\n` +
            `It works once and expires at ${link.expiresAt}. If you did not ask for it, ignore this message.`
        })
      })

      const signIn = Effect.fn("DashboardSignIn.signIn")(function* (token: string) {
        if (!LINK_TOKEN.test(token)) return yield* new InvalidSignInLink()
        const tokenHash = yield* hashSecret(token)
        const sessionToken = yield* generateSecret(DASHBOARD_SESSION_PREFIX)
        const id = yield* newIdText
        const sessionHash = yield* hashSecret(sessionToken)
        const csrfToken = yield* generateSecret("")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const at = isoOfMillis(now)
            const userId = yield* repo.consumeLink(tokenHash, at)
            if (Option.isNone(userId)) return yield* new InvalidSignInLink()
            const user = yield* users.findById(userId.value)
            if (Option.isNone(user)) return yield* new InvalidSignInLink()
            const opened: DashboardSession = {
              id,
              tokenHash: sessionHash,
              userId: userId.value,
              csrfToken,
              createdAt: at,
              expiresAt: isoOfMillis(now + settings.sessionTtlSeconds * 1000),
              revokedAt: null
            }
            yield* repo.insertSession(opened)
            yield* audited(user.value, "dashboard_session.created", opened, at)
            return { session: opened, token: sessionToken, user: user.value }
          })
        )
      })

      const authenticate = Effect.fn("DashboardSignIn.authenticate")(function* (token: string) {
        if (!token.startsWith(DASHBOARD_SESSION_PREFIX)) return Option.none<ActiveSession>()
        const tokenHash = yield* hashSecret(token)
        const found = yield* repo.findSession(tokenHash)
        const now = yield* Clock.currentTimeMillis
        if (Option.isNone(found) || !constantTimeEqual(found.value.tokenHash, tokenHash)) return Option.none()
        if (!isSessionLive(found.value, now)) return Option.none()
        const user = yield* users.findById(found.value.userId)
        return Option.map(user, (u): ActiveSession => ({ session: found.value, user: u }))
      })

      const signOut = Effect.fn("DashboardSignIn.signOut")(function* (active: ActiveSession) {
        const at = isoOfMillis(yield* Clock.currentTimeMillis)
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (yield* repo.revokeSession(active.session.id, at)) {
              yield* audited(active.user, "dashboard_session.revoked", active.session, at)
            }
          })
        )
      })

      return DashboardSignIn.of({ requestLink, signIn, authenticate, signOut })
    })

  static readonly layer = (settings: DashboardSignInSettings) =>
    Layer.effect(DashboardSignIn, DashboardSignIn.make(settings))
}

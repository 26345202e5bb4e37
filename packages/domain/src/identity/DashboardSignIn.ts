import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import { AuditLogRepo } from "../audit/index.ts"
import { Mailer, type MailMessage } from "../platform/index.ts"
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
  UserId
} from "../shared/index.ts"
import { type DashboardSession, isSessionLive, type QueuedLinkRequest, type SignInLink } from "./DashboardSession.ts"
import { auditSession } from "./internal/SessionAudit.ts"
import { normalizeEmail } from "./Member.ts"
import {
  SIGN_IN_LINK_TTL_SECONDS,
  SIGN_IN_LINKS_PER_ADDRESS,
  SIGN_IN_LINKS_PER_CLIENT,
  type SignInLinkLimits,
  signInClientOf
} from "./SignInAllowance.ts"
import { TeamInvitesRepo } from "./TeamManagement.ts"
import type { User } from "./User.ts"
import { UsersRepo } from "./Users.ts"

/** The prefix of dashboard session tokens (the `svc_session` cookie, or a bearer token). */
export const DASHBOARD_SESSION_PREFIX = "svcsess_"

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
    /** Queues a request for a link: all that asking for one writes, whatever the address (ADR 0044). */
    readonly enqueueLinkRequest: (request: QueuedLinkRequest) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Takes the oldest queued request off the queue as part of the caller's transaction (so it stays queued if that
     * rolls back), passing over those another transaction is taking; none when none is left.
     */
    readonly takeLinkRequest: Effect.Effect<Option.Option<QueuedLinkRequest>, PersistenceUnavailable>
    /**
     * Stores the link unless its user already has, created at or after `limits.since`, `limits.perClient` links asked
     * from the link's client or `limits.perAddress` links in all (true when stored). Concurrent calls for one user are
     * serialized, so the bounds hold however many ask at once.
     */
    readonly insertLink: (link: SignInLink, limits: SignInLinkLimits) => Effect.Effect<boolean, PersistenceUnavailable>
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
    /** The user's personal tokens that are neither revoked nor expired at `at`, newest first. */
    readonly listPersonalTokens: (
      userId: UserId,
      at: string
    ) => Effect.Effect<ReadonlyArray<DashboardSession>, PersistenceUnavailable>
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

/**
 * Who may sign up by asking for a link with an address no user has (ADR 0057): `open`, anyone who reads the mail sent
 * to it (a new person, then, creates their team); `invited`, only an address with a pending invitation.
 */
export const SIGN_UP_POLICIES = ["open", "invited"] as const
export type SignUpPolicy = (typeof SIGN_UP_POLICIES)[number]

/** Where sign-in links point, how long sessions live, and who may sign up. */
export interface DashboardSignInSettings {
  /** The dashboard's sign-in page; the token goes in its fragment (`#token=`), so it never reaches a server log. */
  readonly signInUrl: string
  readonly sessionTtlSeconds: number
  readonly signUp: SignUpPolicy
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
 * Dashboard sign-in by e-mailed one-time link (ADRs 0037, 0044): request a link (queued alike for every address, mailed
 * by the sign-in pass), consume it once for a session, resolve a session token, sign out. Sign-in and sign-out are
 * audited on the user's current team.
 */
export class DashboardSignIn extends Context.Service<
  DashboardSignIn,
  {
    /**
     * Asks for a sign-in link for `email` from the client at `clientAddress`: only queues the request, the same work
     * whether or not the address belongs to anyone (ADR 0044); the sign-in pass decides and mails.
     */
    readonly requestLink: (email: string, clientAddress: string) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * The sign-in pass: takes queued requests in arrival order until none is left, each in a transaction of its own,
     * and mails a link for each whose address belongs to a user within the allowance (`SignInAllowance`), unless the
     * request is older than a link's lifetime; answers how many requests it took.
     */
    readonly sendRequestedLinks: Effect.Effect<number, PersistenceUnavailable>
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
      const invites = yield* TeamInvitesRepo
      const audit = yield* AuditLogRepo
      const transactor = yield* Transactor
      const mailer = yield* Mailer

      const requestLink = Effect.fn("DashboardSignIn.requestLink")(function* (email: string, clientAddress: string) {
        yield* repo.enqueueLinkRequest({
          email: normalizeEmail(email),
          requestedFrom: signInClientOf(clientAddress),
          requestedAt: isoOfMillis(yield* Clock.currentTimeMillis)
        })
      })

      /**
       * The user an address without one signs up as, provisioned now (their link needs them) when the sign-up policy
       * lets the address in; none otherwise.
       */
      const newcomer = (email: string, now: number) =>
        Effect.gen(function* () {
          const admitted = settings.signUp === "open" || (yield* invites.hasPendingFor(email, isoOfMillis(now)))
          if (!admitted) return Option.none<User>()
          const id = UserId.make(yield* newIdText)
          return Option.some(yield* users.ensure({ id, email, fullName: null }))
        })

      /** The mail a queued request calls for, the link stored: none for a stale request, a stranger or past the allowance. */
      const linkFor = (request: QueuedLinkRequest) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const windowStart = now - SIGN_IN_LINK_TTL_SECONDS * 1000
          if (Date.parse(request.requestedAt) < windowStart) return Option.none<MailMessage>()
          const user = yield* Effect.flatMap(users.findByEmail(request.email), (known) =>
            Option.isSome(known) ? Effect.succeed(known) : newcomer(request.email, now)
          )
          if (Option.isNone(user)) return Option.none<MailMessage>()
          const token = yield* generateSecret("")
          const link: SignInLink = {
            tokenHash: yield* hashSecret(token),
            userId: user.value.id,
            requestedFrom: request.requestedFrom,
            expiresAt: isoOfMillis(now + SIGN_IN_LINK_TTL_SECONDS * 1000),
            consumedAt: null,
            createdAt: isoOfMillis(now)
          }
          const stored = yield* repo.insertLink(link, {
            since: isoOfMillis(windowStart),
            perClient: SIGN_IN_LINKS_PER_CLIENT,
            perAddress: SIGN_IN_LINKS_PER_ADDRESS
          })
          if (!stored) {
            yield* Effect.logInfo("sign-in link not sent: too many links for this address").pipe(
              Effect.annotateLogs({ userId: user.value.id, requestedFrom: request.requestedFrom })
            )
            return Option.none<MailMessage>()
          }
          return Option.some<MailMessage>({
            to: user.value.email,
            subject: "Your sign-in link",
            text:
              `Sign in to the dashboard with this link:\n${settings.signInUrl}#token=${token}\n` +
              `It works once and expires at ${link.expiresAt}. If you did not ask for it, ignore this message.`
          })
        })

      /** Takes the next queued request and stores its link in one transaction: none when the queue is empty. */
      const takeNext = transactor.withTransaction(
        Effect.flatMap(
          repo.takeLinkRequest,
          Option.match({
            onNone: () => Effect.succeed(Option.none<Option.Option<MailMessage>>()),
            onSome: (request) => Effect.map(linkFor(request), Option.some)
          })
        )
      )

      const sendRequestedLinks = Effect.gen(function* () {
        let taken = 0
        for (;;) {
          const next = yield* takeNext
          if (Option.isNone(next)) return taken
          taken += 1
          // Mailed once its link is committed: a mailer never fails, and a lost message costs only a new request.
          if (Option.isSome(next.value)) yield* mailer.send(next.value.value)
        }
      }).pipe(Effect.withSpan("DashboardSignIn.sendRequestedLinks"))

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
              revokedAt: null,
              name: null,
              preview: null
            }
            yield* repo.insertSession(opened)
            yield* auditSession(audit, user.value, "dashboard_session.created", opened, at)
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
              yield* auditSession(audit, active.user, "dashboard_session.revoked", active.session, at)
            }
          })
        )
      })

      return DashboardSignIn.of({ requestLink, sendRequestedLinks, signIn, authenticate, signOut })
    })

  static readonly layer = (settings: DashboardSignInSettings) =>
    Layer.effect(DashboardSignIn, DashboardSignIn.make(settings))
}

/** A background job that runs the sign-in pass (`sendRequestedLinks`) every `interval`. */
export const SignInLinksJob = (interval: Duration.Input) =>
  periodicJob(
    "sign-in links",
    DashboardSignIn.use((signIn) => signIn.sendRequestedLinks),
    interval
  )

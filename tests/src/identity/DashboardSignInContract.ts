import { assert, layer } from "@effect/vitest"
import {
  type AuditLogRepo,
  type DashboardSession,
  DashboardSessionsRepo,
  DashboardSignIn,
  hashSecret,
  isoOfMillis,
  Mailer,
  type MailMessage,
  type PersistenceUnavailable,
  type QueuedLinkRequest,
  type SignInLink,
  type SignUpPolicy,
  type TeamId,
  TeamInvitesRepo,
  TeamsRepo,
  Transactor,
  type UserId,
  UsersRepo
} from "@svc/domain"
import { Clock, Effect, Layer, Option, Ref } from "effect"
import { TestClock } from "effect/testing"

const SIGN_IN_URL = "https://svc.example/dashboard/sign-in"

const newUser = (email = `${crypto.randomUUID()}@example.com`) =>
  UsersRepo.use((users) => users.ensure({ id: crypto.randomUUID() as UserId, email, fullName: "Ada" }))

const CLIENT = "203.0.113.1"

const link = (userId: UserId, nowMs: number, requestedFrom = CLIENT): SignInLink => ({
  tokenHash: crypto.randomUUID(),
  userId,
  requestedFrom,
  expiresAt: isoOfMillis(nowMs + 15 * 60_000),
  consumedAt: null,
  createdAt: isoOfMillis(nowMs)
})

/** What a sign-in test drives: DashboardSignIn over the ports in context, a new user, and the mail sent so far. */
interface SignInScene {
  readonly signIn: DashboardSignIn["Service"]
  readonly user: Effect.Success<ReturnType<typeof newUser>>
  readonly mailed: Effect.Effect<ReadonlyArray<MailMessage>>
  /** Asks for a link for `email` from `client` and runs the sign-in pass. */
  readonly ask: (email: string, client?: string) => Effect.Effect<void, PersistenceUnavailable>
}

/** Runs `body` in a new scene whose sessions live an hour, where only invited addresses may sign up unless told. */
const withSignIn = <A, E, R>(body: (scene: SignInScene) => Effect.Effect<A, E, R>, signUp: SignUpPolicy = "invited") =>
  Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const user = yield* newUser()
    const signInLayer = DashboardSignIn.layer({ signInUrl: SIGN_IN_URL, sessionTtlSeconds: 3600, signUp }).pipe(
      Layer.provide(
        Layer.succeed(Mailer, { send: (message) => Ref.update(sent, (all) => [...all, message]), localDelivery: null })
      )
    )
    const signIn = yield* Effect.provide(DashboardSignIn.use(Effect.succeed), signInLayer)
    const ask = (email: string, client = CLIENT) =>
      Effect.andThen(signIn.requestLink(email, client), signIn.sendRequestedLinks)
    return yield* body({ signIn, user, mailed: Ref.get(sent), ask })
  })

const tokenIn = (message: MailMessage | undefined) => {
  assert.isDefined(message)
  const token = /#token=([A-Za-z0-9_-]{43})$/mu.exec(message?.text ?? "")?.[1]
  assert.isDefined(token, message?.text)
  assert.include(message?.text, `${SIGN_IN_URL}#token=`)
  return token ?? ""
}

/** Limits no test reaches: for tests about something else than the limits. */
const UNBOUNDED = { since: isoOfMillis(0), perClient: Number.MAX_SAFE_INTEGER, perAddress: Number.MAX_SAFE_INTEGER }

/** Limits counted since `sinceMs`. */
const limits = (sinceMs: number, perClient: number, perAddress: number) => ({
  since: isoOfMillis(sinceMs),
  perClient,
  perAddress
})

type Ports = DashboardSessionsRepo | UsersRepo | AuditLogRepo | Transactor | TeamInvitesRepo | TeamsRepo

/** What every DashboardSessionsRepo adapter must do, and DashboardSignIn over it (time from the TestClock). */
export const dashboardSignInContract = <E>(name: string, ports: Layer.Layer<Ports, E, never>) =>
  layer(ports, { timeout: "60 seconds" })(`dashboard sign-in (${name})`, (it) => {
    it.effect(
      "a link is stored within its user's limits per client and in all since a time, consumed once before it expires",
      () =>
        Effect.gen(function* () {
          const repo = yield* DashboardSessionsRepo
          const user = yield* newUser()
          const other = yield* newUser()
          const now = Date.parse("2026-11-27T10:00:00.000Z")
          const fresh = link(user.id, now, "a")
          const within = limits(now, 2, 3)
          assert.isTrue(yield* repo.insertLink(fresh, within))
          assert.isTrue(yield* repo.insertLink(link(user.id, now + 60_000, "a"), within))
          assert.isFalse(yield* repo.insertLink(link(user.id, now + 61_000, "a"), within), "client a spent its own")
          assert.isTrue(yield* repo.insertLink(link(user.id, now + 62_000, "b"), within), "client b has its own")
          assert.isFalse(yield* repo.insertLink(link(user.id, now + 63_000, "c"), within), "3 in all")
          // Counted from a later time, the first link no longer counts; another user's links never do.
          assert.isTrue(yield* repo.insertLink(link(user.id, now + 64_000, "a"), limits(now + 1, 2, 3)))
          assert.isTrue(yield* repo.insertLink(link(other.id, now, "a"), limits(0, 1, 1)))

          assert.deepStrictEqual(yield* repo.consumeLink("no-such-hash", isoOfMillis(now)), Option.none())
          const atExpiry = link(user.id, now)
          yield* repo.insertLink(atExpiry, UNBOUNDED)
          assert.deepStrictEqual(yield* repo.consumeLink(atExpiry.tokenHash, atExpiry.expiresAt), Option.none())
          assert.deepStrictEqual(
            yield* repo.consumeLink(fresh.tokenHash, isoOfMillis(now + 1000)),
            Option.some(user.id)
          )
          assert.deepStrictEqual(yield* repo.consumeLink(fresh.tokenHash, isoOfMillis(now + 2000)), Option.none())
        })
    )

    it.effect(
      "of 12 concurrent links for one user, exactly 5 are stored within 5 per client, and 5 within 5 in all",
      () =>
        Effect.gen(function* () {
          const repo = yield* DashboardSessionsRepo
          const now = Date.parse("2026-11-27T10:00:00.000Z")
          const concurrently = (links: ReadonlyArray<SignInLink>, within: ReturnType<typeof limits>) =>
            Effect.all(
              links.map((l) => repo.insertLink(l, within)),
              { concurrency: "unbounded" }
            ).pipe(Effect.map((stored) => stored.filter(Boolean).length))
          const user = yield* newUser()
          const oneClient = Array.from({ length: 12 }, (_, i) => link(user.id, now + i))
          assert.strictEqual(yield* concurrently(oneClient, limits(0, 5, 100)), 5)
          const another = yield* newUser()
          const manyClients = Array.from({ length: 12 }, (_, i) => link(another.id, now + i, `client-${i}`))
          assert.strictEqual(yield* concurrently(manyClients, limits(0, 5, 5)), 5)
        })
    )

    it.effect("link requests are taken once each, in arrival order, and stay queued when the taking rolls back", () =>
      Effect.gen(function* () {
        const repo = yield* DashboardSessionsRepo
        const transactor = yield* Transactor
        const request = (n: number): QueuedLinkRequest => ({
          email: `${crypto.randomUUID()}@example.com`,
          requestedFrom: `client-${n}`,
          requestedAt: isoOfMillis(Date.parse("2026-11-27T10:00:00.000Z") + n)
        })
        const take = transactor.withTransaction(repo.takeLinkRequest)
        const drain = Effect.gen(function* () {
          for (;;) if (Option.isNone(yield* take)) return
        })
        yield* drain
        const queued = Array.from({ length: 3 }, (_, i) => request(i))
        for (const r of queued) yield* repo.enqueueLinkRequest(r)

        const rolledBack = yield* Effect.flip(
          transactor.withTransaction(Effect.andThen(repo.takeLinkRequest, Effect.fail("rolled back")))
        )
        assert.strictEqual(rolledBack, "rolled back")
        assert.deepStrictEqual(yield* take, Option.some(queued[0]))

        const more = Array.from({ length: 8 }, (_, i) => request(i + 3))
        for (const r of more) yield* repo.enqueueLinkRequest(r)
        const taken = yield* Effect.all(
          Array.from({ length: 12 }, () => take),
          { concurrency: "unbounded" }
        )
        const emails = taken.flatMap((t) => (Option.isSome(t) ? [t.value.email] : []))
        assert.deepStrictEqual(
          emails.toSorted(),
          [queued[1], queued[2], ...more].map((r) => r?.email).toSorted(),
          "each request taken exactly once"
        )
        assert.deepStrictEqual(yield* take, Option.none())
      })
    )

    it.effect("of concurrent consumptions of one link exactly one wins", () =>
      Effect.gen(function* () {
        const repo = yield* DashboardSessionsRepo
        const user = yield* newUser()
        const now = Date.parse("2026-11-27T10:00:00.000Z")
        const contested = link(user.id, now)
        yield* repo.insertLink(contested, UNBOUNDED)
        const results = yield* Effect.all(
          Array.from({ length: 8 }, () => repo.consumeLink(contested.tokenHash, isoOfMillis(now + 1000))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter(Option.isSome).length, 1)
      })
    )

    it.effect("a session is found by its hash and revoked once", () =>
      Effect.gen(function* () {
        const repo = yield* DashboardSessionsRepo
        const user = yield* newUser()
        const session: DashboardSession = {
          id: crypto.randomUUID(),
          tokenHash: crypto.randomUUID(),
          userId: user.id,
          csrfToken: "csrf",
          createdAt: "2026-11-27T10:00:00.000Z",
          expiresAt: "2026-11-27T22:00:00.000Z",
          revokedAt: null,
          name: null,
          preview: null
        }
        yield* repo.insertSession(session)
        assert.deepStrictEqual(yield* repo.findSession(session.tokenHash), Option.some(session))
        assert.deepStrictEqual(yield* repo.findSession("other"), Option.none())
        assert.isTrue(yield* repo.revokeSession(session.id, "2026-11-27T11:00:00.000Z"))
        assert.isFalse(yield* repo.revokeSession(session.id, "2026-11-27T12:00:00.000Z"))
        assert.deepStrictEqual(
          yield* repo.findSession(session.tokenHash),
          Option.some({ ...session, revokedAt: "2026-11-27T11:00:00.000Z" })
        )
      })
    )

    it.effect("a person's personal tokens are listed while they work, newest first; browser sessions never", () =>
      Effect.gen(function* () {
        const repo = yield* DashboardSessionsRepo
        const user = yield* newUser()
        const other = yield* newUser()
        const t = (minutes: number) => isoOfMillis(Date.parse("2030-01-01T00:00:00.000Z") + minutes * 60_000)
        const token = (owner: UserId, name: string | null, createdAt: string, expiresAt: string): DashboardSession => ({
          id: crypto.randomUUID(),
          tokenHash: crypto.randomUUID(),
          userId: owner,
          csrfToken: "csrf",
          createdAt,
          expiresAt,
          revokedAt: null,
          name,
          preview: name === null ? null : "svcsess_…abcd"
        })
        const older = token(user.id, "laptop", t(-20), t(100))
        const newer = token(user.id, "ci", t(-10), t(100))
        const expired = token(user.id, "old", t(-30), t(-1))
        const revoked = token(user.id, "gone", t(-5), t(100))
        const browser = token(user.id, null, t(-1), t(100))
        const theirs = token(other.id, "theirs", t(-1), t(100))
        for (const s of [older, newer, expired, revoked, browser, theirs]) yield* repo.insertSession(s)
        assert.isTrue(yield* repo.revokeSession(revoked.id, t(-2)))
        assert.deepStrictEqual(yield* repo.listPersonalTokens(user.id, t(0)), [newer, older])
        assert.deepStrictEqual(yield* repo.listPersonalTokens(other.id, t(0)), [theirs])
        assert.deepStrictEqual(yield* repo.listPersonalTokens(user.id, t(200)), [])
      })
    )

    it.effect("the purge deletes links expired and sessions ended before the cutoff, nothing else", () =>
      Effect.gen(function* () {
        const repo = yield* DashboardSessionsRepo
        const user = yield* newUser()
        const t = (minutes: number) => isoOfMillis(Date.parse("2030-01-01T00:00:00.000Z") + minutes * 60_000)
        const session = (expiresAt: string, revokedAt: string | null): DashboardSession => ({
          id: crypto.randomUUID(),
          tokenHash: crypto.randomUUID(),
          userId: user.id,
          csrfToken: "csrf",
          createdAt: t(-1000),
          expiresAt,
          revokedAt,
          name: null,
          preview: null
        })
        const oldLink = { ...link(user.id, Date.parse(t(-100))), expiresAt: t(-1) }
        const liveLink = { ...link(user.id, Date.parse(t(-100))), expiresAt: t(1) }
        const expired = session(t(-1), null)
        const revoked = session(t(100), t(-1))
        const live = session(t(100), null)
        const revokedLater = session(t(100), t(1))
        for (const l of [oldLink, liveLink]) yield* repo.insertLink(l, UNBOUNDED)
        for (const s of [expired, revoked, live, revokedLater]) yield* repo.insertSession(s)
        assert.isAtLeast(yield* repo.purgeEndedBefore(t(0)), 3)
        assert.strictEqual(yield* repo.purgeEndedBefore(t(0)), 0)
        for (const gone of [expired, revoked]) assert.isTrue(Option.isNone(yield* repo.findSession(gone.tokenHash)))
        for (const kept of [live, revokedLater]) assert.isTrue(Option.isSome(yield* repo.findSession(kept.tokenHash)))
        assert.deepStrictEqual(yield* repo.consumeLink(oldLink.tokenHash, t(-50)), Option.none())
        assert.deepStrictEqual(yield* repo.consumeLink(liveLink.tokenHash, t(-50)), Option.some(user.id))
      })
    )

    it.effect("users are found by e-mail without case, the earliest first", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const email = `${crypto.randomUUID()}@Example.com`
        const first = yield* newUser(email)
        yield* TestClock.adjust("1 second")
        yield* newUser(email.toLowerCase())
        const found = yield* users.findByEmail(email.toUpperCase())
        assert.deepStrictEqual(
          Option.map(found, (u) => u.id),
          Option.some(first.id)
        )
        assert.isTrue(Option.isNone(yield* users.findByEmail(`x${email}`)))
      })
    )

    it.effect("asking for a link only queues the request, alike for known and unknown addresses; the pass mails", () =>
      withSignIn(({ signIn, user, mailed }) =>
        Effect.gen(function* () {
          const repo = yield* DashboardSessionsRepo
          const transactor = yield* Transactor
          const stranger = `${crypto.randomUUID()}@example.com`
          yield* signIn.sendRequestedLinks // what earlier tests left queued
          yield* signIn.requestLink(` ${user.email.toUpperCase()} `, "2001:db8:1:2::7")
          yield* signIn.requestLink(stranger, "2001:db8:1:2::7")
          assert.deepStrictEqual(yield* mailed, [], "nothing is mailed while asking")

          const now = isoOfMillis(yield* Clock.currentTimeMillis)
          const queued = yield* transactor
            .withTransaction(
              Effect.andThen(Effect.all([repo.takeLinkRequest, repo.takeLinkRequest]), (taken) => Effect.fail(taken))
            )
            .pipe(Effect.flip)
          assert.deepStrictEqual(queued, [
            Option.some({ email: user.email, requestedFrom: "2001:db8:1:2::/64", requestedAt: now }),
            Option.some({ email: stranger, requestedFrom: "2001:db8:1:2::/64", requestedAt: now })
          ])

          assert.strictEqual(yield* signIn.sendRequestedLinks, 2)
          assert.deepStrictEqual(
            (yield* mailed).map((m) => m.to),
            [user.email]
          )
          assert.strictEqual(yield* signIn.sendRequestedLinks, 0)
        })
      )
    )

    it.effect("open sign-up: a new address is mailed a link that opens a session of a new user without a team", () =>
      withSignIn(
        ({ signIn, mailed, ask }) =>
          Effect.gen(function* () {
            const users = yield* UsersRepo
            const email = `${crypto.randomUUID()}@example.com`
            yield* ask(` ${email.toUpperCase()} `)
            yield* ask(email)
            const mail = yield* mailed
            assert.deepStrictEqual(
              mail.map((m) => m.to),
              [email, email]
            )
            const user = yield* users.findByEmail(email)
            assert.isTrue(Option.isSome(user), "the newcomer is a user once a link is mailed")
            const opened = yield* signIn.signIn(tokenIn(mail[1]))
            assert.strictEqual(opened.user.id, Option.getOrThrow(user).id, "the second link is the same user's")
            assert.deepStrictEqual([opened.user.email, opened.user.currentTeamId], [email, null])
          }),
        "open"
      )
    )

    it.effect(
      "invited sign-up: only an address with a pending invitation is mailed, and only while it is pending",
      () =>
        withSignIn(({ user, mailed, ask }) =>
          Effect.gen(function* () {
            const users = yield* UsersRepo
            const invites = yield* TeamInvitesRepo
            const now = yield* Clock.currentTimeMillis
            const teamId = crypto.randomUUID() as TeamId
            const invitation = (email: string, expiresAt: string, acceptedAt: string | null) => ({
              id: crypto.randomUUID(),
              teamId,
              email,
              role: "member" as const,
              tokenHash: crypto.randomUUID(),
              invitedBy: user.id,
              expiresAt,
              acceptedAt,
              acceptedBy: null,
              createdAt: isoOfMillis(now - 1000)
            })
            const invited = `${crypto.randomUUID()}@Example.com`
            const lapsed = `${crypto.randomUUID()}@example.com`
            const stranger = `${crypto.randomUUID()}@example.com`
            yield* (yield* TeamsRepo).insert({
              id: teamId,
              name: "Acme",
              baseCurrency: "USD",
              createdAt: isoOfMillis(now)
            })
            yield* invites.insert(invitation(invited, isoOfMillis(now + 3600_000), null))
            yield* invites.insert(invitation(lapsed, isoOfMillis(now - 1), null))
            for (const email of [invited.toLowerCase(), lapsed, stranger]) yield* ask(email)
            assert.deepStrictEqual(
              (yield* mailed).map((m) => m.to),
              [invited.toLowerCase()]
            )
            assert.isTrue(Option.isNone(yield* users.findByEmail(stranger)), "no user for a stranger")
            assert.isTrue(Option.isNone(yield* users.findByEmail(lapsed)))
          })
        )
    )

    it.effect("a known address is mailed a link that opens one session; unknown addresses are mailed nothing", () =>
      withSignIn(({ signIn, user, mailed, ask }) =>
        Effect.gen(function* () {
          yield* ask(`${crypto.randomUUID()}@example.com`)
          assert.deepStrictEqual(yield* mailed, [])

          yield* ask(` ${user.email.toUpperCase()} `)
          const mail = yield* mailed
          assert.strictEqual(mail.length, 1)
          assert.strictEqual(mail[0]?.to, user.email)
          const token = tokenIn(mail[0])

          const opened = yield* signIn.signIn(token)
          assert.strictEqual(opened.user.id, user.id)
          assert.match(opened.token, /^svcsess_[A-Za-z0-9_-]{43}$/u)
          assert.strictEqual(opened.session.tokenHash, yield* hashSecret(opened.token))
          assert.strictEqual(opened.session.expiresAt, isoOfMillis((yield* Clock.currentTimeMillis) + 3600_000))
          assert.notStrictEqual(opened.session.csrfToken, opened.token)
          const again = yield* Effect.flip(signIn.signIn(token))
          assert.strictEqual(again._tag, "InvalidSignInLink")

          const active = yield* signIn.authenticate(opened.token)
          assert.deepStrictEqual(
            Option.map(active, (a) => a.session.id),
            Option.some(opened.session.id)
          )
          assert.isTrue(Option.isNone(yield* signIn.authenticate(`${opened.token}x`)))
          assert.isTrue(Option.isNone(yield* signIn.authenticate(token)))
          yield* TestClock.adjust("59 minutes")
          assert.isTrue(Option.isSome(yield* signIn.authenticate(opened.token)))
          yield* TestClock.adjust("1 minute")
          assert.isTrue(Option.isNone(yield* signIn.authenticate(opened.token)))
        })
      )
    )

    it.effect("an expired, malformed or unknown link fails alike; signing out ends the session at once", () =>
      withSignIn(({ signIn, user, mailed, ask }) =>
        Effect.gen(function* () {
          for (const bad of ["", "short", "A".repeat(43), `${"A".repeat(42)}=`]) {
            assert.strictEqual((yield* Effect.flip(signIn.signIn(bad)))._tag, "InvalidSignInLink", bad)
          }
          yield* ask(user.email)
          const late = tokenIn((yield* mailed)[0])
          yield* TestClock.adjust("15 minutes")
          assert.strictEqual((yield* Effect.flip(signIn.signIn(late)))._tag, "InvalidSignInLink")

          yield* ask(user.email)
          const opened = yield* signIn.signIn(tokenIn((yield* mailed)[1]))
          const active = yield* signIn.authenticate(opened.token)
          assert.isTrue(Option.isSome(active))
          if (Option.isSome(active)) yield* signIn.signOut(active.value)
          assert.isTrue(Option.isNone(yield* signIn.authenticate(opened.token)))
        })
      )
    )

    it.effect("a client gets at most 5 links for an address per 15 minutes, then nothing until the window moves", () =>
      withSignIn(({ user, mailed, ask }) =>
        Effect.gen(function* () {
          for (let i = 0; i < 6; i++) yield* ask(user.email)
          assert.strictEqual((yield* mailed).length, 5)
          yield* TestClock.adjust("14 minutes")
          yield* ask(user.email)
          assert.strictEqual((yield* mailed).length, 5)
          yield* TestClock.adjust("61 seconds")
          yield* ask(user.email)
          assert.strictEqual((yield* mailed).length, 6)
        })
      )
    )

    it.effect(
      "other clients never spend a client's allowance; an address gets at most 20 links in all per window",
      () =>
        withSignIn(({ user, mailed, ask }) =>
          Effect.gen(function* () {
            for (let i = 0; i < 6; i++) yield* ask(user.email, "198.51.100.66")
            assert.strictEqual((yield* mailed).length, 5)
            yield* ask(user.email, "203.0.113.5")
            assert.strictEqual((yield* mailed).length, 6, "the person's own client still gets its link")
            for (let i = 1; i <= 6; i++) yield* ask(user.email, `2001:db8:77:1::${i}`)
            assert.strictEqual((yield* mailed).length, 11, "the addresses of one IPv6 /64 are one client")
            for (const client of ["192.0.2.1", "192.0.2.2"]) {
              for (let i = 0; i < 5; i++) yield* ask(user.email, client)
            }
            assert.strictEqual((yield* mailed).length, 20)
            yield* ask(user.email, "192.0.2.3")
            assert.strictEqual((yield* mailed).length, 20, "20 in all per window")
            yield* TestClock.adjust("15 minutes")
            yield* TestClock.adjust("1 second")
            yield* ask(user.email, "192.0.2.3")
            assert.strictEqual((yield* mailed).length, 21)
          })
        )
    )

    it.effect("a request older than a link's lifetime when the pass comes to it is dropped unmailed", () =>
      withSignIn(({ signIn, user, mailed }) =>
        Effect.gen(function* () {
          yield* signIn.requestLink(user.email, CLIENT)
          yield* TestClock.adjust("15 minutes")
          yield* TestClock.adjust("1 second")
          assert.strictEqual(yield* signIn.sendRequestedLinks, 1)
          assert.deepStrictEqual(yield* mailed, [])
        })
      )
    )

    it.effect("concurrent passes take every queued request once", () =>
      withSignIn(({ signIn, user, mailed }) =>
        Effect.gen(function* () {
          yield* signIn.sendRequestedLinks // what earlier tests left queued
          for (let i = 0; i < 6; i++) yield* signIn.requestLink(user.email, `192.0.2.${i}`)
          const taken = yield* Effect.all(
            Array.from({ length: 4 }, () => signIn.sendRequestedLinks),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(
            taken.reduce((a, b) => a + b, 0),
            6
          )
          assert.strictEqual((yield* mailed).length, 6)
        })
      )
    )
  })

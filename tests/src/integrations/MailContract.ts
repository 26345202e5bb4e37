import { assert, layer } from "@effect/vitest"
import { MailProviderHttp, MailStateJwe } from "@svc/adapters-integrations"
import type { Ports } from "@svc/api"
import {
  AuditLogRepo,
  auditEntryView,
  type InboxAccountId,
  InboxAccountsRepo,
  Ledger,
  MailConnection,
  type MailInboxAccount,
  Notifications,
  notifyAllPending,
  SealedSecrets,
  type TeamId,
  TeamOpening,
  Teams,
  type UserId,
  Users
} from "@svc/domain"
import { Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { MAIL_CLIENT, mailProviderServer } from "./MailProviderServer.ts"

const KEY = Redacted.make("integration-secrets-key-for-the-contract-0123456789")
const CALLBACK_URL = "http://svc.test/apps/mail/oauth-callback"

/** The mailbox connection over the given ports, with a local provider the caller points it at. */
const mailOver = <E, R>(ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(
    Users.layer,
    Teams.layer,
    TeamOpening.layer,
    Notifications.layer,
    SealedSecrets.layer(KEY),
    MailStateJwe.layer(KEY)
  ).pipe(Layer.provideMerge(Ledger.layer), Layer.provideMerge(ports))

/** A team made the way users make one; its owner. */
const newTeam = Effect.gen(function* () {
  const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
  const team = yield* TeamOpening.use((opening) => opening.open(owner, { name: "Acme" }))
  return { teamId: team.id, owner: { teamId: team.id, userId: owner.id, role: "owner" as const } }
})

/** An account as the service stores it, for `teamId`, connected by `userId`. */
const account = (teamId: TeamId, userId: UserId, email: string, createdAt: string): MailInboxAccount => ({
  id: crypto.randomUUID() as InboxAccountId,
  teamId,
  provider: "mail",
  email,
  accessToken: "v1.aaaa.bbbb",
  refreshToken: null,
  expiresAt: null,
  status: "connected",
  lastError: null,
  connectedBy: userId,
  createdAt,
  updatedAt: createdAt
})

/** `MailConnection` and its repository on every adapter. */
export const mailContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(mailOver(ports), { timeout: "60 seconds" })(`mail inbox accounts (${name})`, (it) => {
    /** `MailConnection` against a local provider, for `f`. */
    const withConnection = <A, E2, R>(
      f: (provider: Effect.Success<ReturnType<typeof mailProviderServer>>) => Effect.Effect<A, E2, R>
    ) =>
      Effect.gen(function* () {
        const provider = yield* mailProviderServer(CALLBACK_URL)
        const settings = Option.some({
          clientId: MAIL_CLIENT.id,
          clientSecret: Redacted.make(MAIL_CLIENT.secret),
          authorizeUrl: provider.env.MAIL_OAUTH_AUTHORIZE_URL,
          tokenUrl: provider.env.MAIL_OAUTH_TOKEN_URL,
          userinfoUrl: provider.env.MAIL_USERINFO_URL,
          revokeUrl: provider.env.MAIL_OAUTH_REVOKE_URL,
          scopes: "openid email mail.read",
          redirectUri: CALLBACK_URL
        })
        return yield* f(provider).pipe(
          Effect.provide(
            MailConnection.layer.pipe(
              Layer.provide(MailProviderHttp.layer(settings).pipe(Layer.provide(FetchHttpClient.layer)))
            )
          )
        )
      })

    it.effect("one account per team and address: an upsert keeps the id and creation, other teams are apart", () =>
      Effect.gen(function* () {
        const repo = yield* InboxAccountsRepo
        const acme = yield* newTeam
        const globex = yield* newTeam
        const first = account(acme.teamId, acme.owner.userId, "ap@acme.example", "2026-11-01T10:00:00.000Z")
        assert.deepStrictEqual(yield* repo.upsert(first), first)
        const again = {
          ...account(acme.teamId, acme.owner.userId, "ap@acme.example", "2026-11-02T10:00:00.000Z"),
          accessToken: "v1.cccc.dddd",
          refreshToken: "v1.eeee.ffff",
          expiresAt: "2026-11-02T11:00:00.000Z"
        }
        const updated = yield* repo.upsert(again)
        assert.deepStrictEqual(updated, { ...again, id: first.id, createdAt: first.createdAt })
        assert.deepStrictEqual(yield* repo.find(first.id), Option.some(updated))
        const other = yield* repo.upsert(
          account(globex.teamId, globex.owner.userId, "ap@acme.example", "2026-11-03T10:00:00.000Z")
        )
        assert.notStrictEqual(other.id, first.id)
        const second = yield* repo.upsert(
          account(acme.teamId, acme.owner.userId, "receipts@acme.example", "2026-11-04T10:00:00.000Z")
        )
        const page = yield* repo.list(acme.teamId, { after: Option.none(), limit: 1 })
        assert.deepStrictEqual(
          page.map((a) => a.id),
          [second.id, first.id]
        )
        const next = yield* repo.list(acme.teamId, {
          after: Option.some({ createdAt: second.createdAt, id: second.id }),
          limit: 5
        })
        assert.deepStrictEqual(
          next.map((a) => a.id),
          [first.id]
        )
        assert.deepStrictEqual(yield* repo.remove(first.id), Option.some(updated))
        assert.deepStrictEqual(yield* repo.remove(first.id), Option.none())
        assert.deepStrictEqual(yield* repo.find(first.id), Option.none())
      })
    )

    it.effect("a connection, its reconnection and its disconnection through the service", () =>
      withConnection((provider) =>
        Effect.gen(function* () {
          const mail = yield* MailConnection
          const sealed = yield* SealedSecrets
          const { teamId, owner } = yield* newTeam
          const start = Effect.map(mail.installUrl(owner), ({ url, browserSecret }) => ({
            state: new URL(url).searchParams.get("state") ?? "",
            browserSecret
          }))
          const first = yield* start
          const connected = yield* mail.callback({ code: provider.issue("AP@Acme.example"), ...first })
          assert.strictEqual(connected._tag, "Connected")
          const stored = connected._tag === "Connected" ? connected.account : assert.fail("connected")
          assert.include(stored, { teamId, email: "ap@acme.example", status: "connected", connectedBy: owner.userId })
          const tokens = provider.tokensOf("AP@Acme.example")
          assert.strictEqual(yield* sealed.open(stored.accessToken), tokens?.accessToken)
          assert.strictEqual(yield* sealed.open(stored.refreshToken ?? ""), tokens?.refreshToken)
          const replayed = yield* Effect.flip(mail.callback({ code: provider.issue("ap@acme.example"), ...first }))
          assert.include(replayed, { _tag: "MailCallbackInvalid", field: "state" })
          const second = yield* start
          const elsewhere = { ...second, browserSecret: (yield* start).browserSecret }
          const carried = yield* Effect.flip(mail.callback({ code: provider.issue("ap@acme.example"), ...elsewhere }))
          assert.include(carried, { _tag: "MailCallbackInvalid", field: "state" })
          const reconnected = yield* mail.callback({ code: provider.issue("ap@acme.example"), ...second })
          assert.strictEqual(reconnected._tag === "Connected" ? reconnected.account.id : null, stored.id)
          const removed = yield* mail.disconnect(owner, stored.id)
          assert.strictEqual(removed.id, stored.id)
          assert.deepStrictEqual(provider.revoked, [provider.tokensOf("ap@acme.example")?.refreshToken])
          assert.deepStrictEqual(yield* mail.list(teamId, { after: Option.none(), limit: 10 }), [])
          const audited = yield* AuditLogRepo.use((log) => log.list(teamId, { after: Option.none(), limit: 10 }))
          assert.deepStrictEqual(
            audited.map((entry) => auditEntryView(entry).type),
            ["inbox_account.removed", "inbox_account.connected", "inbox_account.connected"],
            "connections and the disconnection audited, newest first"
          )
          assert.notInclude(JSON.stringify(audited.map(auditEntryView)), tokens?.accessToken ?? "-", "no token audited")
          const gone = yield* Effect.flip(mail.disconnect(owner, stored.id))
          assert.strictEqual(gone._tag, "InboxAccountNotFound")
          const member = { ...owner, role: "member" as const }
          assert.strictEqual((yield* Effect.flip(mail.installUrl(member)))._tag, "MailConnectionForbidden")
          assert.strictEqual((yield* Effect.flip(mail.disconnect(member, stored.id)))._tag, "MailConnectionForbidden")
        })
      )
    )

    it.effect("a failed account is marked disconnected with its reason, and its team is notified once", () =>
      withConnection(() =>
        Effect.gen(function* () {
          const mail = yield* MailConnection
          const repo = yield* InboxAccountsRepo
          const { teamId, owner } = yield* newTeam
          const stored = yield* repo.upsert(account(teamId, owner.userId, "ap@acme.example", new Date().toISOString()))
          yield* mail.markFailed(teamId, "the provider no longer accepts the account's tokens", stored)
          const failed = Option.getOrThrow(yield* repo.find(stored.id))
          assert.include(failed, {
            id: stored.id,
            status: "disconnected",
            lastError: "the provider no longer accepts the account's tokens"
          })
          yield* notifyAllPending
          const notifications = yield* Notifications.use((n) =>
            n.list({ teamId, userId: owner.userId }, { statuses: null }, { after: Option.none(), limit: 10 })
          )
          assert.deepStrictEqual(
            notifications.map((n) => [n.type, n.priority, n.metadata.resourceId]),
            [["inbox_account_connection_failed", 2, stored.id]]
          )
          assert.notInclude(JSON.stringify(notifications), stored.accessToken)
        })
      )
    )
  })

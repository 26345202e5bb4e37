import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { AuditLogRepo, auditDraft } from "../audit/index.ts"
import { mayManageTeam, TeamsRepo } from "../identity/index.ts"
import type { Role } from "../identity/model.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  newId,
  newIdText,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  SealedSecrets,
  type TeamId,
  Transactor,
  type UserId
} from "../shared/index.ts"
import { InstallNoncesRepo } from "./InstallNoncesRepo.ts"
import { type InstallStateRefused, redeemInstallState, type StartedInstall, startInstall } from "./InstallState.ts"
import {
  InboxAccountNotFound,
  type MailAppNotConfigured,
  MailCallbackInvalid,
  MailConnectionForbidden,
  type MailProviderFailed
} from "./MailErrors.ts"
import {
  InboxAccountId,
  type InboxConnectionFailureView,
  inboxAccountView,
  type MailInboxAccount
} from "./MailInboxAccount.ts"
import { InboxAccountsRepo, MailProvider, MailStateCodec } from "./MailPorts.ts"

/** How long a connection's `state` holds: the time a person has to consent at the provider. */
export const MAIL_STATE_TTL_SECONDS = 600

/** What a mail connection's state is for, among the install flows whose nonces are consumed. */
export const MAIL_INSTALL_STATE_PURPOSE = "mail-install-state"

/** The provider name inbox accounts are stored under. */
export const MAIL_PROVIDER = "mail"

/** A person of the team acting on its mailboxes, with their role in it. */
export interface MailActor {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly role: Role
}

/** What the provider sent back to the OAuth callback, and the browser secret the redirected browser presents. */
export interface MailCallback {
  readonly state: string
  readonly code?: string | undefined
  readonly error?: string | undefined
  readonly browserSecret?: string | undefined
}

/** How a callback ended: a mailbox connected, or the authorization the person was asked for refused. */
export type MailCallbackOutcome =
  | { readonly _tag: "Connected"; readonly account: MailInboxAccount }
  | { readonly _tag: "Refused"; readonly error: string }

const ERROR_CODE = /^[\w.-]{1,64}$/u

/**
 * A team's connected mailboxes: owners and admins connect one through the provider's consent screen (an encrypted
 * `state` naming team and person, valid 10 minutes, used once and only by the browser that asked for it, ADR 0042) and
 * disconnect it (its grant revoked at the provider, the account
 * gone even when the provider cannot be reached). Tokens are stored sealed; a connection that fails tells the team
 * (the `inbox_account.connection_failed` event, which becomes a notification).
 */
export class MailConnection extends Context.Service<
  MailConnection,
  {
    /** The provider's consent URL for the actor's team, and the secret the browser that follows it must hold. */
    readonly installUrl: (
      actor: MailActor
    ) => Effect.Effect<StartedInstall, MailConnectionForbidden | MailAppNotConfigured>
    /**
     * Completes a connection: the state must be one this service made, unexpired, naming a person still an owner or
     * admin of its team, presented by the browser that holds its secret and not used before (it is used up here). An
     * `error` from the provider is a refusal (the team is told); otherwise the code is exchanged and the account
     * stored, a reconnected address updating its account.
     */
    readonly callback: (
      input: MailCallback
    ) => Effect.Effect<
      MailCallbackOutcome,
      MailCallbackInvalid | MailProviderFailed | MailAppNotConfigured | PersistenceUnavailable
    >
    /** The team's accounts, newest first, up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<MailInboxAccount>, PersistenceUnavailable>
    /** Revokes the account's grant at the provider (a failure is logged, not kept) and removes the account. */
    readonly disconnect: (
      actor: MailActor,
      id: string
    ) => Effect.Effect<MailInboxAccount, InboxAccountNotFound | MailConnectionForbidden | PersistenceUnavailable>
    /** Tells the team a connection failed; an account it concerns is marked disconnected with the reason. */
    readonly markFailed: (
      teamId: TeamId,
      reason: string,
      account?: MailInboxAccount
    ) => Effect.Effect<void, PersistenceUnavailable>
  }
>()("@svc/domain/MailConnection") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* InboxAccountsRepo
    const provider = yield* MailProvider
    const codec = yield* MailStateCodec
    const nonces = yield* InstallNoncesRepo
    const sealed = yield* SealedSecrets
    const teams = yield* TeamsRepo
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const audit = yield* AuditLogRepo

    const installUrl = Effect.fn("MailConnection.installUrl")(function* (actor: MailActor) {
      if (!mayManageTeam(actor.role)) return yield* new MailConnectionForbidden({ action: "connect a mailbox" })
      const now = yield* Clock.currentTimeMillis
      const start = yield* startInstall
      const state = yield* codec.encrypt(
        { teamId: actor.teamId, userId: actor.userId, nonce: start.nonce, browserHash: start.browserHash },
        now + MAIL_STATE_TTL_SECONDS * 1000
      )
      return { url: yield* provider.authorizeUrl(state), browserSecret: start.browserSecret }
    })

    const markFailed = Effect.fn("MailConnection.markFailed")(function* (
      teamId: TeamId,
      reason: string,
      account?: MailInboxAccount
    ) {
      const at = yield* nowIso
      const failure: InboxConnectionFailureView = {
        id: account?.id ?? null,
        object: "inbox_connection_failure",
        provider: MAIL_PROVIDER,
        email: account?.email ?? null,
        reason,
        occurredAt: at
      }
      const event = {
        id: yield* newIdText,
        teamId,
        mode: "live" as const,
        type: "inbox_account.connection_failed",
        data: failure,
        createdAt: at
      }
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          if (account !== undefined) {
            yield* repo.upsert({ ...account, status: "disconnected", lastError: reason, updatedAt: at })
          }
          yield* outbox.publish(event)
        })
      )
    })

    const invalidState = (message: string) => new MailCallbackInvalid({ field: "state", message })
    const REFUSED_STATE: Record<InstallStateRefused["reason"], string> = {
      other_browser: "was not started in this browser: open the install URL in the browser that asked for it",
      used: "has been used already: start the connection again"
    }

    const callback = Effect.fn("MailConnection.callback")(function* (input: MailCallback) {
      const receivedAt = yield* Clock.currentTimeMillis
      const state = yield* codec.decrypt(input.state, receivedAt)
      const membership = yield* teams.membership(state.teamId, state.userId)
      if (Option.isNone(membership) || !mayManageTeam(membership.value.role)) {
        return yield* invalidState("does not name an owner or admin of its team")
      }
      const code = input.code ?? ""
      if (input.error === undefined && code === "") {
        return yield* new MailCallbackInvalid({ field: "code", message: "is required unless `error` is given" })
      }
      yield* redeemInstallState(nonces, MAIL_INSTALL_STATE_PURPOSE, state, input.browserSecret, receivedAt).pipe(
        Effect.catchTag("InstallStateRefused", (e) => Effect.fail(invalidState(REFUSED_STATE[e.reason])))
      )
      if (input.error !== undefined) {
        const error = ERROR_CODE.test(input.error) ? input.error : "access_denied"
        yield* markFailed(state.teamId, `the provider refused the authorization (${error})`)
        return { _tag: "Refused", error } as const
      }
      const grant = yield* provider
        .exchangeCode(code)
        .pipe(
          Effect.tapError((e) =>
            e._tag === "MailProviderFailed"
              ? markFailed(state.teamId, `the provider did not complete the connection (${e.reason})`)
              : Effect.void
          )
        )
      const now = yield* Clock.currentTimeMillis
      const at = isoOfMillis(now)
      const draft: MailInboxAccount = {
        id: yield* newId(InboxAccountId),
        teamId: state.teamId,
        provider: MAIL_PROVIDER,
        email: grant.email.toLowerCase(),
        accessToken: yield* sealed.seal(Redacted.value(grant.accessToken)),
        refreshToken: grant.refreshToken === null ? null : yield* sealed.seal(Redacted.value(grant.refreshToken)),
        expiresAt: grant.expiresInSeconds === null ? null : isoOfMillis(now + grant.expiresInSeconds * 1000),
        status: "connected",
        lastError: null,
        connectedBy: state.userId,
        createdAt: at,
        updatedAt: at
      }
      const account = yield* transactor.withTransaction(
        Effect.gen(function* () {
          const account = yield* repo.upsert(draft)
          const data = inboxAccountView(account)
          yield* audit.append([
            yield* auditDraft(account.teamId, { type: "inbox_account.connected", mode: null, at, data })
          ])
          return account
        })
      )
      return { _tag: "Connected", account } as const
    })

    const list = Effect.fn("MailConnection.list")(function* (teamId: TeamId, page: PageRequest) {
      return yield* repo.list(teamId, page)
    })

    const disconnect = Effect.fn("MailConnection.disconnect")(function* (actor: MailActor, id: string) {
      if (!mayManageTeam(actor.role)) return yield* new MailConnectionForbidden({ action: "disconnect a mailbox" })
      const found = Schema.is(InboxAccountId)(id)
        ? Option.filter(yield* repo.find(id), (a) => a.teamId === actor.teamId)
        : Option.none<MailInboxAccount>()
      if (Option.isNone(found)) return yield* new InboxAccountNotFound({ id })
      const account = found.value
      // Revoking the refresh token ends the whole grant; the access token alone when there is none.
      const token = yield* sealed.open(account.refreshToken ?? account.accessToken).pipe(Effect.option)
      if (Option.isSome(token)) {
        yield* provider.revoke(Redacted.make(token.value)).pipe(
          Effect.catch((e) =>
            Effect.logWarning("mailbox disconnected without revoking its grant", {
              account: account.id,
              reason: e._tag === "MailProviderFailed" ? e.reason : e._tag
            })
          )
        )
      }
      const at = yield* nowIso
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const removed = yield* repo.remove(account.id)
          if (Option.isNone(removed)) return yield* new InboxAccountNotFound({ id })
          const data = { id: account.id, email: account.email, removedBy: actor.userId }
          yield* audit.append([
            yield* auditDraft(actor.teamId, { type: "inbox_account.removed", mode: null, at, data })
          ])
          return removed.value
        })
      )
    })

    return MailConnection.of({ installUrl, callback, list, disconnect, markFailed })
  })

  static readonly layer = Layer.effect(MailConnection, MailConnection.make)
}

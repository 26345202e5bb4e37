import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { AuditLogRepo, auditDraft } from "../audit/index.ts"
import { mayManageTeam, type Role, TeamsRepo } from "../identity/index.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  newIdText,
  nowIso,
  type PersistenceUnavailable,
  SealedSecrets,
  type TeamId,
  Transactor,
  type UserId
} from "../shared/index.ts"
import { ChatAppForbidden, ChatAppNotConfigured, ChatIntegrationNotFound } from "./ChatAppErrors.ts"
import { ChatIntegration, chatIntegrationView } from "./ChatIntegration.ts"
import {
  ChatIntegrationsRepo,
  ChatPlatform,
  type ChatPlatformRefused,
  type ChatPlatformUnavailable
} from "./ChatPorts.ts"
import { InstallNoncesRepo } from "./InstallNoncesRepo.ts"
import {
  type ChatInstallStateInvalid,
  INSTALL_STATE_TTL_SECONDS,
  type InstallStateRefused,
  redeemInstallState,
  type StartedInstall,
  signInstallState,
  startInstall,
  verifyInstallState
} from "./InstallState.ts"

/** The chat app as registered at the platform, and where its install flow starts and ends. */
export interface ChatAppSettings {
  readonly clientId: string
  /** The platform's OAuth authorize page. */
  readonly authorizeUrl: string
  readonly scopes: ReadonlyArray<string>
  /** This service's OAuth callback, as registered at the platform. */
  readonly redirectUri: string
  /** Where the callback sends the browser once the app is installed. */
  readonly installedUrl: string
  /** The key install states are signed with. */
  readonly stateKey: Redacted.Redacted<string>
}

/** A person of the team acting on its chat app, with their role in it. */
export interface ChatAppActor {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly role: Role
}

/** What a chat install state is signed for, so that no other signed text passes for one. */
export const CHAT_INSTALL_STATE_PURPOSE = "chat-install-state"

/**
 * The chat app's install flow (ADR 0034): owners and admins get the platform's authorize URL with a signed state
 * naming them and their team (10 minutes), and the secret their browser must present with it (ADR 0042); the callback
 * checks the state, that its user still manages the team and that it comes from that browser, uses the state up (once,
 * whoever races), exchanges the code, seals the bot token and stores the team's one integration (replacing and
 * revoking a previous one), audited. Uninstalling removes the integration, audited, and revokes its token at the
 * platform (a failed revocation is logged, never keeps the integration). Without configuration every step but
 * `markDisconnected` fails with `ChatAppNotConfigured`.
 */
export class ChatApp extends Context.Service<
  ChatApp,
  {
    readonly installUrl: (actor: ChatAppActor) => Effect.Effect<StartedInstall, ChatAppNotConfigured | ChatAppForbidden>
    /**
     * Completes an install from the platform's redirect, with the browser secret the redirected browser presents;
     * answers where to send the browser.
     */
    readonly completeInstall: (callback: {
      readonly code: string
      readonly state: string
      readonly browserSecret: string | undefined
    }) => Effect.Effect<
      string,
      | ChatAppNotConfigured
      | ChatInstallStateInvalid
      | InstallStateRefused
      | ChatAppForbidden
      | ChatPlatformRefused
      | ChatPlatformUnavailable
      | PersistenceUnavailable
    >
    readonly integration: (
      teamId: TeamId
    ) => Effect.Effect<ChatIntegration, ChatAppNotConfigured | ChatIntegrationNotFound | PersistenceUnavailable>
    readonly uninstall: (
      actor: ChatAppActor
    ) => Effect.Effect<
      ChatIntegration,
      ChatAppNotConfigured | ChatAppForbidden | ChatIntegrationNotFound | PersistenceUnavailable
    >
    /**
     * Removes the team's integration because the platform no longer accepts its token (`reason`, e.g. the platform's
     * `token_revoked`), and tells the team (`chat_integration.disconnected`); none when it had none.
     */
    readonly markDisconnected: (
      teamId: TeamId,
      reason: string
    ) => Effect.Effect<Option.Option<ChatIntegration>, PersistenceUnavailable>
  }
>()("@svc/domain/ChatApp") {
  private static readonly build = (
    configured: Option.Option<{ readonly settings: ChatAppSettings; readonly platform: ChatPlatform["Service"] }>
  ) =>
    Effect.gen(function* () {
      const repo = yield* ChatIntegrationsRepo
      const nonces = yield* InstallNoncesRepo
      const teams = yield* TeamsRepo
      const audit = yield* AuditLogRepo
      const outbox = yield* EventOutbox
      const transactor = yield* Transactor
      const sealed = yield* SealedSecrets

      const app = Option.match(configured, {
        onNone: () => Effect.fail(new ChatAppNotConfigured()),
        onSome: Effect.succeed
      })

      /** Revokes the integration's token unless it is `keep` (a platform may grant a reinstall the same token). */
      const revokeQuietly = (integration: ChatIntegration, platform: ChatPlatform["Service"], keep?: string) =>
        sealed.open(integration.botToken).pipe(
          Effect.flatMap((token) => (token === keep ? Effect.void : platform.revokeToken(Redacted.make(token)))),
          Effect.catch((error) =>
            Effect.logWarning("chat app: the bot token could not be revoked at the platform", {
              teamId: integration.teamId,
              integrationId: integration.id,
              error: error._tag
            })
          )
        )

      const installUrl = Effect.fn("ChatApp.installUrl")(function* (actor: ChatAppActor) {
        const { settings } = yield* app
        if (!mayManageTeam(actor.role)) return yield* new ChatAppForbidden({ action: "install the chat app" })
        const now = yield* Clock.currentTimeMillis
        const start = yield* startInstall
        const state = yield* signInstallState(Redacted.value(settings.stateKey), CHAT_INSTALL_STATE_PURPOSE, {
          teamId: actor.teamId,
          userId: actor.userId,
          expiresAtMs: now + INSTALL_STATE_TTL_SECONDS * 1000,
          nonce: start.nonce,
          browserHash: start.browserHash
        })
        const url = new URL(settings.authorizeUrl)
        url.searchParams.set("client_id", settings.clientId)
        url.searchParams.set("scope", settings.scopes.join(","))
        url.searchParams.set("redirect_uri", settings.redirectUri)
        url.searchParams.set("state", state)
        return { url: url.toString(), browserSecret: start.browserSecret }
      })

      const completeInstall = Effect.fn("ChatApp.completeInstall")(function* (callback: {
        readonly code: string
        readonly state: string
        readonly browserSecret: string | undefined
      }) {
        const { settings, platform } = yield* app
        const now = yield* Clock.currentTimeMillis
        const claims = yield* verifyInstallState(
          Redacted.value(settings.stateKey),
          CHAT_INSTALL_STATE_PURPOSE,
          callback.state,
          now
        )
        const membership = yield* teams.membership(claims.teamId, claims.userId)
        if (Option.isNone(membership) || !mayManageTeam(membership.value.role)) {
          return yield* new ChatAppForbidden({ action: "install the chat app" })
        }
        yield* redeemInstallState(nonces, CHAT_INSTALL_STATE_PURPOSE, claims, callback.browserSecret, now)
        const installation = yield* platform.exchangeCode({ code: callback.code, redirectUri: settings.redirectUri })
        const integration = new ChatIntegration({
          id: yield* newIdText,
          teamId: claims.teamId,
          workspaceId: installation.workspaceId,
          workspaceName: installation.workspaceName,
          channelId: installation.channelId,
          channelName: installation.channelName,
          botUserId: installation.botUserId,
          botToken: yield* sealed.seal(Redacted.value(installation.accessToken)),
          scopes: installation.scopes,
          installedBy: claims.userId,
          installedAt: yield* nowIso
        })
        const entry = yield* auditDraft(integration.teamId, {
          type: "chat_integration.installed",
          mode: null,
          at: integration.installedAt,
          data: chatIntegrationView(integration)
        })
        const previous = yield* transactor.withTransaction(
          Effect.gen(function* () {
            const previous = yield* repo.forTeam(integration.teamId)
            yield* repo.save(integration)
            yield* audit.append([entry])
            return previous
          })
        )
        if (Option.isSome(previous)) {
          yield* revokeQuietly(previous.value, platform, Redacted.value(installation.accessToken))
        }
        return settings.installedUrl
      })

      const integration = Effect.fn("ChatApp.integration")(function* (teamId: TeamId) {
        yield* app
        const found = yield* repo.forTeam(teamId)
        if (Option.isNone(found)) return yield* new ChatIntegrationNotFound({ teamId })
        return found.value
      })

      const uninstall = Effect.fn("ChatApp.uninstall")(function* (actor: ChatAppActor) {
        const { platform } = yield* app
        if (!mayManageTeam(actor.role)) return yield* new ChatAppForbidden({ action: "remove the chat app" })
        const at = yield* nowIso
        const removed = yield* transactor.withTransaction(
          Effect.gen(function* () {
            const removed = yield* repo.remove(actor.teamId)
            if (Option.isNone(removed)) return yield* new ChatIntegrationNotFound({ teamId: actor.teamId })
            const entry = yield* auditDraft(actor.teamId, {
              type: "chat_integration.removed",
              mode: null,
              at,
              data: { id: removed.value.id, workspaceId: removed.value.workspaceId, removedBy: actor.userId }
            })
            yield* audit.append([entry])
            return removed.value
          })
        )
        yield* revokeQuietly(removed, platform)
        return removed
      })

      const markDisconnected = Effect.fn("ChatApp.markDisconnected")(function* (teamId: TeamId, reason: string) {
        const at = yield* nowIso
        const eventId = yield* newIdText
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const removed = yield* repo.remove(teamId)
            if (Option.isNone(removed)) return removed
            const data = { ...chatIntegrationView(removed.value), reason }
            const entry = yield* auditDraft(teamId, { type: "chat_integration.disconnected", mode: null, at, data })
            yield* audit.append([entry])
            yield* outbox.publish({
              id: eventId,
              teamId,
              mode: "live",
              type: "chat_integration.disconnected",
              data,
              createdAt: at
            })
            return removed
          })
        )
      })

      return ChatApp.of({ installUrl, completeInstall, integration, uninstall, markDisconnected })
    })

  /** The chat app as configured, installing through `ChatPlatform`. */
  static readonly layer = (settings: ChatAppSettings) =>
    Layer.effect(
      ChatApp,
      Effect.gen(function* () {
        const platform = yield* ChatPlatform
        return yield* ChatApp.build(Option.some({ settings, platform }))
      })
    )

  /** The chat app when the service has no credentials for it. */
  static readonly unconfigured = Layer.effect(ChatApp, ChatApp.build(Option.none()))
}

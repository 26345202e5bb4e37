import { assert, layer } from "@effect/vitest"
import { ChatPlatformHttp } from "@svc/adapters-integrations"
import type { Ports } from "@svc/api"
import {
  AuditLogRepo,
  auditEntryView,
  ChatApp,
  ChatIntegrationsRepo,
  Notifications,
  notifyAllPending,
  SealedSecrets
} from "@svc/domain"
import { Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { type ChatPlatformStandIn, chatPlatformFake } from "./ChatPlatformFake.ts"
import { integrationsOver, integrationsTeam } from "./IntegrationsSetup.ts"

const REDIRECT = "https://svc.test/apps/chat/oauth-callback"
const KEY = Redacted.make("chat-app-contract-key-0123456789abcdef")

/** The chat app over the ports, installing through the HTTP adapter pointed at `platform`. */
const chatAppOn = (platform: ChatPlatformStandIn) =>
  ChatApp.layer({
    clientId: platform.clientId,
    authorizeUrl: platform.authorizeUrl,
    scopes: ["chat:write", "incoming-webhook"],
    redirectUri: REDIRECT,
    installedUrl: "https://dashboard.test/settings/integrations?chat=installed",
    stateKey: KEY
  }).pipe(
    Layer.provide(
      ChatPlatformHttp.layer({
        clientId: platform.clientId,
        clientSecret: Redacted.make(platform.clientSecret),
        tokenUrl: platform.tokenUrl,
        apiUrl: platform.apiUrl
      }).pipe(Layer.provide(FetchHttpClient.layer))
    ),
    Layer.provide(SealedSecrets.layer(KEY))
  )

/** The chat app's lost connection, on every adapter: removed once, told to the team once. */
export const chatAppContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(Layer.merge(integrationsOver(ports), Notifications.layer.pipe(Layer.provide(ports))), {
    timeout: "60 seconds",
    excludeTestServices: true
  })(`chat app disconnection (${name})`, (it) => {
    it.effect("markDisconnected removes the integration and notifies the team once, never with the token", () =>
      Effect.gen(function* () {
        const platform = yield* chatPlatformFake
        const { team, owner } = yield* integrationsTeam()
        const chat = yield* Effect.provide(ChatApp, chatAppOn(platform))
        const started = yield* chat.installUrl({ teamId: team.id, userId: owner.id, role: "owner" })
        const code = platform.consent(REDIRECT, "chat:write,incoming-webhook")
        const state = new URL(started.url).searchParams.get("state") ?? ""
        yield* chat.completeInstall({ code, state, browserSecret: started.browserSecret })
        const installed = Option.getOrThrow(yield* ChatIntegrationsRepo.use((repo) => repo.forTeam(team.id)))

        const removed = yield* chat.markDisconnected(team.id, "token_revoked")
        assert.deepStrictEqual(removed, Option.some(installed))
        assert.isTrue(Option.isNone(yield* chat.markDisconnected(team.id, "token_revoked")))
        assert.isTrue(Option.isNone(yield* ChatIntegrationsRepo.use((repo) => repo.forTeam(team.id))))

        yield* notifyAllPending
        yield* notifyAllPending
        const notifications = yield* Notifications.use((n) =>
          n.list({ teamId: team.id, userId: owner.id }, { statuses: null }, { after: Option.none(), limit: 10 })
        )
        assert.deepStrictEqual(
          notifications.map((n) => [n.type, n.priority, n.metadata.resourceId]),
          [["chat_integration_disconnected", 2, installed.id]]
        )
        const resource = notifications[0]?.metadata.resource as Record<string, unknown>
        assert.strictEqual(resource.reason, "token_revoked")
        assert.strictEqual(resource.workspaceId, installed.workspaceId)
        assert.notProperty(resource, "botToken")
        for (const token of platform.issuedTokens()) assert.notInclude(JSON.stringify(notifications), token)

        const audit = yield* AuditLogRepo.use((log) => log.list(team.id, { after: Option.none(), limit: 10 }))
        assert.includeMembers(
          audit.map((e) => auditEntryView(e).type),
          ["chat_integration.installed", "chat_integration.disconnected"]
        )
      }).pipe(Effect.scoped)
    )
  })

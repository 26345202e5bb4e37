import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import {
  AuditLogRepo,
  auditEntryView,
  CHAT_INSTALL_STATE_PURPOSE,
  type InstallClaims,
  SealedSecrets,
  signInstallState,
  type TeamId,
  textFromBase64Url,
  toBase64Url,
  utf8
} from "@svc/domain"
import { Effect, type Layer, Option, Redacted } from "effect"
import { setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import type { Answer } from "../support/InProcessApp.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { memberToken } from "../support/TeamMembers.ts"
import {
  assertInvalidState,
  CALLBACK,
  callback,
  DASHBOARD,
  install,
  type Run,
  SECRETS_KEY,
  startInstall,
  stored,
  withChatApp
} from "./ChatAppHttpSetup.ts"
import { type ChatPlatformStandIn, DEFAULT_WORKSPACE } from "./ChatPlatformFake.ts"
import { browserOf } from "./IntegrationsSetup.ts"

const auditTypes = (run: Run, teamId: TeamId) =>
  run(AuditLogRepo.use((log) => log.list(teamId, { after: Option.none(), limit: 100 }))).then((entries) =>
    entries.map((e) => auditEntryView(e).type)
  )

/** No answer holds a bot token the platform issued. */
const assertNoToken = (platform: ChatPlatformStandIn, answers: ReadonlyArray<Answer>) => {
  for (const answer of answers) {
    for (const token of platform.issuedTokens()) assert.notInclude(JSON.stringify(answer.body), token)
  }
}

/** The chat app's install flow, its integration and its removal over HTTP, on whichever ports the caller provides. */
export const chatAppHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`chat app over HTTP (${name})`, (it) => {
    it.effect("installs end to end: install URL, consent, callback, sealed token, redirect, integration", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const done = await install(app, platform, team.owner)
        assert.strictEqual(done.status, 302, JSON.stringify(done.body))
        assert.strictEqual(done.headers.get("location"), `${DASHBOARD}/settings/integrations?chat=installed`)
        const [token] = platform.issuedTokens()
        assert.isDefined(token)
        const row = Option.getOrThrow(await stored(run, team.id))
        assert.isTrue(row.botToken.startsWith("v1."))
        assert.notInclude(row.botToken, token ?? "")
        const opened = await Effect.runPromise(
          Effect.flatMap(SealedSecrets.make(Redacted.make(SECRETS_KEY)), (sealed) => sealed.open(row.botToken))
        )
        assert.strictEqual(opened, token)
        const read = await app.call("GET", "/apps/chat", { token: team.owner })
        assert.strictEqual(read.status, 200)
        assert.deepStrictEqual(read.body, {
          id: row.id,
          teamId: team.id,
          workspaceId: DEFAULT_WORKSPACE.id,
          workspaceName: DEFAULT_WORKSPACE.name,
          channelId: DEFAULT_WORKSPACE.channelId,
          channelName: DEFAULT_WORKSPACE.channelName,
          botUserId: "U0BOT0001",
          scopes: ["chat:write", "commands", "users:read", "users:read.email", "channels:history", "incoming-webhook"],
          installedBy: row.installedBy,
          installedAt: row.installedAt
        })
        assert.include(await auditTypes(run, team.id), "chat_integration.installed")
        assertNoToken(platform, [done, read])
      })
    )

    it.effect("installing again replaces the integration; a token no longer held is revoked, a kept one is not", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        assert.strictEqual((await install(app, platform, team.owner)).status, 302)
        const first = Option.getOrThrow(await stored(run, team.id))
        assert.strictEqual((await install(app, platform, team.owner)).status, 302)
        const second = Option.getOrThrow(await stored(run, team.id))
        assert.notStrictEqual(second.id, first.id)
        const [sameWorkspaceToken] = platform.issuedTokens()
        assert.strictEqual(platform.issuedTokens().length, 1)
        assert.isFalse(platform.isRevoked(sameWorkspaceToken ?? ""))
        const elsewhere = { ...DEFAULT_WORKSPACE, id: "T0OTHER01", name: "Other HQ" }
        assert.strictEqual((await install(app, platform, team.owner, elsewhere)).status, 302)
        assert.strictEqual(Option.getOrThrow(await stored(run, team.id)).workspaceId, elsewhere.id)
        const [oldToken, newToken] = platform.issuedTokens()
        assert.isTrue(platform.isRevoked(oldToken ?? ""))
        assert.isFalse(platform.isRevoked(newToken ?? ""))
      })
    )

    it.effect("an expired state, a forged one, another team's and a malformed one are refused; nothing stored", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const other = await setUpKeyedTeam(app)
        const browser = browserOf(app)
        const state = await startInstall(browser, platform, team.owner)
        const claims = JSON.parse(textFromBase64Url(state.split(".")[0] ?? "") ?? "{}") as InstallClaims
        const expired = await Effect.runPromise(
          signInstallState(SECRETS_KEY, CHAT_INSTALL_STATE_PURPOSE, { ...claims, expiresAtMs: Date.now() - 1 })
        )
        const code = () => platform.consent(CALLBACK, "chat:write,incoming-webhook")
        assertInvalidState(await callback(browser, code(), expired), "expired: start the install again")
        const otherKey = await Effect.runPromise(
          signInstallState("another-key-0123456789abcdef0123456789", CHAT_INSTALL_STATE_PURPOSE, claims)
        )
        assertInvalidState(await callback(browser, code(), otherKey), "not a state this service issued")
        const retargeted = `${toBase64Url(utf8(JSON.stringify({ ...claims, teamId: other.id })))}.${state.split(".")[1]}`
        assertInvalidState(await callback(browser, code(), retargeted), "not a state this service issued")
        const otherPurpose = await Effect.runPromise(signInstallState(SECRETS_KEY, "mail-install-state", claims))
        assertInvalidState(await callback(browser, code(), otherPurpose), "not a state this service issued")
        assertInvalidState(await callback(browser, code(), "not-a-state"), "not a state this service issued")
        const missing = await app.call("GET", "/apps/chat/oauth-callback?code=abc")
        assert.strictEqual(missing.status, 400)
        assert.isTrue(Option.isNone(await stored(run, team.id)))
        assert.isTrue(Option.isNone(await stored(run, other.id)))
        assert.deepStrictEqual(platform.issuedTokens(), [])
      })
    )

    it.effect("a state whose user no longer manages the team is refused", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const admin = await run(memberToken(team.id, "admin"))
        const browser = browserOf(app)
        const state = await startInstall(browser, platform, admin.token)
        const changed = await app.call("PATCH", `/teams/${team.id}/members/${admin.id}`, {
          token: team.owner,
          body: { role: "member" }
        })
        assert.isBelow(changed.status, 300, JSON.stringify(changed.body))
        const code = platform.consent(CALLBACK, "chat:write,incoming-webhook")
        assertInvalidState(await callback(browser, code, state), "its user no longer manages the team")
        assert.isTrue(Option.isNone(await stored(run, team.id)))
      })
    )

    it.effect("a failed exchange: refused (400, the platform's error), unreachable (500); nothing stored", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        platform.failNextExchange("refuse")
        const refused = await install(app, platform, team.owner)
        assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
        assert.strictEqual(refused.body.error, "chat_exchange_refused")
        assert.deepStrictEqual(refused.body.details, [
          { path: "code", message: "refused by the chat platform: access_denied" }
        ])
        platform.failNextExchange("status500")
        const failed = await install(app, platform, team.owner)
        assert.strictEqual(failed.status, 500, JSON.stringify(failed.body))
        assert.strictEqual(failed.body.error, "internal_error")
        const browser = browserOf(app)
        const unknown = await callback(browser, "code-never-issued", await startInstall(browser, platform, team.owner))
        assert.strictEqual(unknown.status, 400)
        assert.include(unknown.body.message, "invalid_code")
        assert.notInclude(JSON.stringify([refused.body, failed.body, unknown.body]), platform.clientSecret)
        assert.isTrue(Option.isNone(await stored(run, team.id)))
      })
    )

    it.effect("uninstalling revokes the token at the platform and removes the integration, audited", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        assert.strictEqual((await install(app, platform, team.owner)).status, 302)
        const removed = await app.call("DELETE", "/apps/chat", { token: team.owner })
        assert.strictEqual(removed.status, 200, JSON.stringify(removed.body))
        assert.strictEqual(removed.body.workspaceId, DEFAULT_WORKSPACE.id)
        assert.isUndefined(removed.body.botToken)
        assert.isTrue(platform.isRevoked(platform.issuedTokens()[0] ?? ""))
        assert.strictEqual((await app.call("GET", "/apps/chat", { token: team.owner })).status, 404)
        assert.strictEqual((await app.call("DELETE", "/apps/chat", { token: team.owner })).status, 404)
        assert.isTrue(Option.isNone(await stored(run, team.id)))
        assert.include(await auditTypes(run, team.id), "chat_integration.removed")
        assertNoToken(platform, [removed])
      })
    )

    it.effect("a token the platform no longer accepts does not keep the integration", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        assert.strictEqual((await install(app, platform, team.owner)).status, 302)
        const token = platform.issuedTokens()[0] ?? ""
        const revoked = await fetch(`${platform.apiUrl}/auth.revoke`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` }
        })
        assert.strictEqual((await revoked.json()).ok, true)
        const removed = await app.call("DELETE", "/apps/chat", { token: team.owner })
        assert.strictEqual(removed.status, 200, JSON.stringify(removed.body))
        assert.isTrue(Option.isNone(await stored(run, team.id)))
      })
    )

    it.effect("roles: members read the integration; only owners and admins install and remove it", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const member = await run(memberToken(team.id, "member"))
        const admin = await run(memberToken(team.id, "admin"))
        const refused = await app.call("GET", "/apps/chat/install-url", { token: member.token })
        assert.strictEqual(refused.status, 403)
        assert.strictEqual((await app.call("GET", "/apps/chat", { token: member.token })).status, 404)
        assert.strictEqual((await install(app, platform, admin.token)).status, 302)
        const read = await app.call("GET", "/apps/chat", { token: member.token })
        assert.strictEqual(read.status, 200)
        assert.strictEqual(read.body.installedBy, admin.id)
        assert.strictEqual((await app.call("DELETE", "/apps/chat", { token: member.token })).status, 403)
        assert.strictEqual((await app.call("GET", "/apps/chat/install-url")).status, 401)
        assert.strictEqual((await app.call("GET", "/apps/chat")).status, 401)
        assert.strictEqual((await app.call("DELETE", "/apps/chat", { token: admin.token })).status, 200)
        assertNoToken(platform, [read])
      })
    )

    it.effect("without CHAT_CLIENT_ID and CHAT_CLIENT_SECRET every chat app route answers 503", () =>
      withAppOnPorts(
        async (app) => {
          const team = await setUpKeyedTeam(app)
          const answers = [
            await app.call("GET", "/apps/chat/install-url", { token: team.owner }),
            await app.call("GET", "/apps/chat", { token: team.owner }),
            await app.call("DELETE", "/apps/chat", { token: team.owner }),
            await callback(app, "code", "state")
          ]
          for (const answer of answers) {
            assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
            assert.strictEqual(answer.body.error, "chat_app_not_configured")
          }
        },
        testConfig,
        { CHAT_CLIENT_ID: "only-the-id" }
      )
    )
  })

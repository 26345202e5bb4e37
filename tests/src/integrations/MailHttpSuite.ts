import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { type InboxAccountId, InboxAccountsRepo, Notifications, notifyAllPending, SealedSecrets } from "@svc/domain"
import { type Context, Effect, type Layer, Option, Redacted } from "effect"
import type { Client } from "../support/HttpScenarios.ts"
import { memberToken } from "../support/TeamMembers.ts"
import { browserOf } from "./IntegrationsSetup.ts"
import {
  assertInvalidState,
  CALLBACK_URL,
  callback,
  connect,
  craftedState,
  INBOX_PAGE,
  installState,
  listAccounts,
  newTeam,
  run,
  SECRETS_KEY,
  withMail
} from "./MailHttpSetup.ts"
import { MAIL_CLIENT } from "./MailProviderServer.ts"

const sealer = SealedSecrets.make(Redacted.make(SECRETS_KEY))

/** The notification types the team's owner sees, after the notification job's passes. */
const notificationTypes = async (app: Client, context: Context.Context<Ports>, token: string) => {
  await run(context, notifyAllPending.pipe(Effect.provide(Notifications.layer)))
  const list = await app.call("GET", "/notifications", { token })
  assert.strictEqual(list.status, 200, JSON.stringify(list.body))
  return (list.body.data as Array<{ type: string; metadata: { resource: Record<string, unknown> } }>).map((n) => ({
    type: n.type,
    reason: n.metadata.resource.reason
  }))
}

/** The mailbox connection over HTTP against a local mail provider, on whichever ports the caller provides. */
export const mailHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`mail inbox connection (${name})`, (it) => {
    it.effect("the install URL, the callback and the stored account: tokens sealed at rest, never answered", () =>
      withMail(async (app, context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const install = await browser.call("GET", "/apps/mail/install-url", { token: team.token })
        assert.strictEqual(install.status, 200, JSON.stringify(install.body))
        const url = new URL(install.body.url)
        assert.strictEqual(`${url.origin}${url.pathname}`, provider.env.MAIL_OAUTH_AUTHORIZE_URL)
        assert.strictEqual(url.searchParams.get("client_id"), MAIL_CLIENT.id)
        assert.strictEqual(url.searchParams.get("redirect_uri"), CALLBACK_URL)
        assert.strictEqual(url.searchParams.get("response_type"), "code")
        assert.strictEqual(url.searchParams.get("scope"), "openid email mail.read")
        const state = url.searchParams.get("state") ?? ""
        assert.strictEqual(state.split(".").length, 5, "a compact JWE")
        assert.notInclude(state, team.teamId)
        const header = JSON.parse(Buffer.from(state.split(".")[0] ?? "", "base64url").toString("utf8"))
        assert.deepStrictEqual(header, { alg: "dir", enc: "A256GCM" })

        const answer = await callback(browser, { code: provider.issue("Billing@Acme.example"), state })
        assert.strictEqual(answer.status, 302, JSON.stringify(answer.body))
        assert.strictEqual(answer.headers.get("location"), `${INBOX_PAGE}?connected=1`)
        assert.deepStrictEqual(provider.tokenRequests.at(-1), {
          grant_type: "authorization_code",
          code: provider.tokenRequests.at(-1)?.code ?? "",
          redirect_uri: CALLBACK_URL,
          client_id: MAIL_CLIENT.id,
          client_secret: MAIL_CLIENT.secret
        })

        const accounts = await listAccounts(app, team.token)
        assert.strictEqual(accounts.length, 1)
        const [account] = accounts
        assert.deepStrictEqual(Object.keys(account ?? {}).toSorted(), [
          "connectedBy",
          "createdAt",
          "email",
          "expiresAt",
          "id",
          "lastError",
          "object",
          "provider",
          "status",
          "updatedAt"
        ])
        assert.include(account, {
          object: "inbox_account",
          provider: "mail",
          email: "billing@acme.example",
          status: "connected",
          lastError: null,
          connectedBy: team.userId
        })
        assert.isAbove(Date.parse(String(account?.expiresAt)), Date.now() + 3_000_000)

        const tokens = provider.tokensOf("Billing@Acme.example")
        assert.isDefined(tokens)
        const row = await run(
          context,
          InboxAccountsRepo.use((repo) => repo.find(account?.id as InboxAccountId))
        )
        assert.isTrue(Option.isSome(row))
        const stored = Option.getOrThrow(row)
        for (const [sealed, plain] of [
          [stored.accessToken, tokens?.accessToken],
          [stored.refreshToken, tokens?.refreshToken]
        ] as const) {
          assert.match(sealed ?? "", /^v1\./u)
          assert.notInclude(sealed ?? "", plain ?? "?")
          assert.strictEqual(await Effect.runPromise(Effect.flatMap(sealer, (s) => s.open(sealed ?? ""))), plain)
        }
        const answers = JSON.stringify([install.body, answer.body, accounts])
        assert.notInclude(answers, tokens?.accessToken ?? "?")
        assert.notInclude(answers, tokens?.refreshToken ?? "?")
      })
    )

    it.effect("reconnecting an address updates its account instead of adding one", () =>
      withMail(async (app, context, provider) => {
        const team = await newTeam(app)
        assert.strictEqual((await connect(app, provider, team.token, "ap@acme.example")).status, 302)
        const [first] = await listAccounts(app, team.token)
        const again = await connect(app, provider, team.token, "AP@acme.example")
        assert.strictEqual(again.status, 302)
        const accounts = await listAccounts(app, team.token)
        assert.deepStrictEqual(
          accounts.map((a) => [a.id, a.email]),
          [[first?.id, "ap@acme.example"]]
        )
        const row = Option.getOrThrow(
          await run(
            context,
            InboxAccountsRepo.use((repo) => repo.find(first?.id as InboxAccountId))
          )
        )
        const latest = provider.tokensOf("AP@acme.example")?.accessToken
        assert.strictEqual(await Effect.runPromise(Effect.flatMap(sealer, (s) => s.open(row.accessToken))), latest)
        assert.strictEqual((await connect(app, provider, team.token, "receipts@acme.example")).status, 302)
        assert.strictEqual((await listAccounts(app, team.token)).length, 2)
      })
    )

    it.effect("forged, tampered, expired and missing states are 400 naming state; nothing is exchanged", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const state = await installState(browser, team.token)
        const code = provider.issue("ap@acme.example")
        const parts = state.split(".")
        const body = parts[3] ?? ""
        const flipped = `${body.slice(0, 5)}${body[5] === "A" ? "B" : "A"}${body.slice(6)}`
        const tampered = [...parts.slice(0, 3), flipped, parts[4]].join(".")
        const otherKey = await craftedState(
          app,
          team.teamId,
          team.userId,
          Date.now() + 600_000,
          "another-key-entirely-0123456789abcdef"
        )
        const expired = await craftedState(app, team.teamId, team.userId, Date.now() - 1_000)
        for (const bad of ["not-a-state", tampered]) assertInvalidState(await callback(browser, { code, state: bad }))
        for (const bad of [otherKey, expired])
          assertInvalidState(await callback(bad.browser, { code, state: bad.state }))
        const missing = await callback(app, { code })
        assert.strictEqual(missing.status, 400)
        assert.include(JSON.stringify(missing.body), "state")
        assert.deepStrictEqual(provider.tokenRequests, [])
        const noCode = await callback(browser, { state })
        assert.strictEqual(noCode.status, 400, JSON.stringify(noCode.body))
        assert.deepStrictEqual(noCode.body.details, [{ path: "code", message: "is required unless `error` is given" }])
        assert.deepStrictEqual(await listAccounts(app, team.token), [])
      })
    )

    it.effect("a state naming another team, or a member who may not connect, is refused", () =>
      withMail(async (app, context, provider) => {
        const acme = await newTeam(app)
        const globex = await newTeam(app)
        const foreign = await craftedState(app, globex.teamId, acme.userId, Date.now() + 600_000)
        const code = () => provider.issue("ap@acme.example")
        assertInvalidState(await callback(foreign.browser, { code: code(), state: foreign.state }))
        const member = await run(context, memberToken(acme.teamId, "member"))
        const ofMember = await craftedState(app, acme.teamId, member.id, Date.now() + 600_000)
        assertInvalidState(await callback(ofMember.browser, { code: code(), state: ofMember.state }))
        assert.deepStrictEqual(provider.tokenRequests, [])
        assert.deepStrictEqual(await listAccounts(app, globex.token), [])
        assert.deepStrictEqual(await listAccounts(app, acme.token), [])
      })
    )

    it.effect("a refused authorization and a failed exchange notify the team; neither stores an account", () =>
      withMail(async (app, context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const refused = await callback(browser, {
          error: "access_denied",
          state: await installState(browser, team.token)
        })
        assert.strictEqual(refused.status, 302, JSON.stringify(refused.body))
        assert.strictEqual(refused.headers.get("location"), `${INBOX_PAGE}?error=access_denied`)
        const failed = await callback(browser, {
          code: "4/0A-never-issued",
          state: await installState(browser, team.token)
        })
        assert.strictEqual(failed.status, 500, JSON.stringify(failed.body))
        assert.strictEqual(provider.tokenRequests.length, 1, "only the code is exchanged, not the refusal")
        assert.deepStrictEqual(failed.body, {
          error: "mail_exchange_failed",
          code: 500,
          message: "the token endpoint refused the code: invalid_grant"
        })
        assert.deepStrictEqual(await listAccounts(app, team.token), [])
        assert.deepStrictEqual(await notificationTypes(app, context, team.token), [
          {
            type: "inbox_account_connection_failed",
            reason: "the provider did not complete the connection (the token endpoint refused the code: invalid_grant)"
          },
          {
            type: "inbox_account_connection_failed",
            reason: "the provider refused the authorization (access_denied)"
          }
        ])
      })
    )

    it.effect("an address the provider has not verified is not connected", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const answer = await callback(browser, {
          code: provider.issue("unverified@acme.example", { verified: false }),
          state: await installState(browser, team.token)
        })
        assert.strictEqual(answer.status, 500, JSON.stringify(answer.body))
        assert.strictEqual(answer.body.message, "the provider has not verified the address")
        assert.deepStrictEqual(await listAccounts(app, team.token), [])
      })
    )

    it.effect("disconnecting revokes the grant at the provider; an unreachable revocation still removes it", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        await connect(app, provider, team.token, "ap@acme.example")
        await connect(app, provider, team.token, "receipts@acme.example")
        const accounts = await listAccounts(app, team.token)
        const byEmail = (email: string) => String(accounts.find((a) => a.email === email)?.id)
        const gone = await app.call("DELETE", `/inbox/accounts/${byEmail("ap@acme.example")}`, { token: team.token })
        assert.strictEqual(gone.status, 200, JSON.stringify(gone.body))
        assert.deepStrictEqual(gone.body, { id: byEmail("ap@acme.example"), object: "inbox_account", deleted: true })
        assert.deepStrictEqual(provider.revoked, [provider.tokensOf("ap@acme.example")?.refreshToken])
        provider.failRevocations()
        const alsoGone = await app.call("DELETE", `/inbox/accounts/${byEmail("receipts@acme.example")}`, {
          token: team.token
        })
        assert.strictEqual(alsoGone.status, 200, JSON.stringify(alsoGone.body))
        assert.deepStrictEqual(await listAccounts(app, team.token), [])
        const again = await app.call("DELETE", `/inbox/accounts/${byEmail("ap@acme.example")}`, { token: team.token })
        assert.strictEqual(again.status, 404)
      })
    )

    it.effect("members list mailboxes; only owners and admins connect and disconnect; other teams see none", () =>
      withMail(async (app, context, provider) => {
        const team = await newTeam(app)
        await connect(app, provider, team.token, "ap@acme.example")
        const [account] = await listAccounts(app, team.token)
        const member = await run(context, memberToken(team.teamId, "member"))
        const admin = await run(context, memberToken(team.teamId, "admin"))
        assert.strictEqual((await listAccounts(app, member.token)).length, 1)
        const refused = await app.call("GET", "/apps/mail/install-url", { token: member.token })
        assert.strictEqual(refused.status, 403)
        const notRemoved = await app.call("DELETE", `/inbox/accounts/${account?.id}`, { token: member.token })
        assert.strictEqual(notRemoved.status, 403)
        const stranger = await newTeam(app)
        assert.deepStrictEqual(await listAccounts(app, stranger.token), [])
        const foreign = await app.call("DELETE", `/inbox/accounts/${account?.id}`, { token: stranger.token })
        assert.strictEqual(foreign.status, 404)
        assert.strictEqual((await connect(app, provider, admin.token, "admin@acme.example")).status, 302)
        const removed = await app.call("DELETE", `/inbox/accounts/${account?.id}`, { token: admin.token })
        assert.strictEqual(removed.status, 200)
        assert.strictEqual((await app.call("GET", "/inbox/accounts")).status, 401)
        assert.strictEqual((await app.call("GET", "/apps/mail/install-url")).status, 401)
      })
    )

    it.effect("without the mail app's credentials the routes answer 503 mail_app_not_configured", () =>
      withMail(
        async (app, _context, provider) => {
          const team = await newTeam(app)
          const install = await app.call("GET", "/apps/mail/install-url", { token: team.token })
          assert.strictEqual(install.status, 503)
          assert.strictEqual(install.body.error, "mail_app_not_configured")
          const { state, browser } = await craftedState(app, team.teamId, team.userId, Date.now() + 600_000)
          const answer = await callback(browser, { code: provider.issue("ap@acme.example"), state })
          assert.strictEqual(answer.status, 503)
          assert.strictEqual(answer.body.error, "mail_app_not_configured")
          assert.deepStrictEqual(provider.tokenRequests, [])
        },
        { configured: false }
      )
    )
  })

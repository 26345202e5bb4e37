import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { type Layer, Option } from "effect"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import type { Answer } from "../support/InProcessApp.ts"
import {
  assertInvalidState as assertInvalidChatState,
  callback as chatCallback,
  consent,
  startInstall,
  stored,
  withChatApp
} from "./ChatAppHttpSetup.ts"
import { DEFAULT_WORKSPACE, type PlatformWorkspace } from "./ChatPlatformFake.ts"
import { browserOf } from "./IntegrationsSetup.ts"
import {
  assertInvalidState as assertInvalidMailState,
  INBOX_PAGE,
  installState,
  listAccounts,
  callback as mailCallback,
  newTeam,
  withMail
} from "./MailHttpSetup.ts"

const USED = "already used: start the install again"
const OTHER_BROWSER = "not started in this browser: open the install URL in the browser that asked for it"

/** A workspace of its own, e.g. the one an attacker would attach. */
const workspace = (id: string): PlatformWorkspace => ({ ...DEFAULT_WORKSPACE, id, name: `Workspace ${id}` })

/** The `Set-Cookie` line of `answer` for the cookie `name`, as attributes in lower case (`name=value` first). */
const setCookie = (answer: Answer, name: string) => {
  const line = answer.headers.getSetCookie().find((l) => l.startsWith(`${name}=`))
  assert.isDefined(line, `${name} in ${JSON.stringify(answer.headers.getSetCookie())}`)
  return (line ?? "").split(";").map((part) => part.trim())
}

/** The state of the install URL an answer carries. */
const stateOf = (answer: Answer) => new URL(answer.body.url).searchParams.get("state") ?? ""

/** Of concurrent answers, how many installed (302) and how many were refused as a used state. */
const outcomes = (answers: ReadonlyArray<Answer>) => ({
  installed: answers.filter((a) => a.status === 302).length,
  refused: answers.filter((a) => a.status === 400 && a.body.error === "invalid_state").length
})

/**
 * Install states of the chat app and of mailbox connections are used once, and only by the browser that asked for the
 * install URL (it holds the state's cookie): a replayed or carried-over state attaches nothing. On whichever ports the
 * caller provides.
 */
export const installStatesHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`install states over HTTP (${name})`, (it) => {
    it.effect("chat: the install URL sets the browser's cookie for the callback only; the callback clears it", () =>
      withChatApp(async (app, platform) => {
        const team = await setUpKeyedTeam(app)
        const browser = browserOf(app)
        const started = await browser.call("GET", "/apps/chat/install-url", { token: team.owner })
        assert.strictEqual(started.status, 200, JSON.stringify(started.body))
        const [pair = "", ...attributes] = setCookie(started, "svc_chat_install")
        assert.isAtLeast(pair.length - "svc_chat_install=".length, 43, "a random value of 32 bytes")
        assert.notInclude(started.body.url, pair.slice("svc_chat_install=".length))
        assert.includeMembers(
          attributes.map((a) => a.toLowerCase()),
          ["path=/apps/chat/oauth-callback", "httponly", "secure", "samesite=lax", "max-age=600"]
        )
        const done = await chatCallback(browser, consent(platform), stateOf(started))
        assert.strictEqual(done.status, 302, JSON.stringify(done.body))
        assert.include(setCookie(done, "svc_chat_install"), "Max-Age=0")
        assert.isFalse(browser.cookies().has("svc_chat_install"))
      })
    )

    it.effect("chat: a used state replayed with another code is refused, and the first install stays", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const browser = browserOf(app)
        const state = await startInstall(browser, platform, team.owner)
        const cookie = browser.cookies().get("svc_chat_install") ?? ""
        assert.strictEqual((await chatCallback(browser, consent(platform), state)).status, 302)
        const replaying = browserOf(app)
        replaying.plant("svc_chat_install", cookie, "/apps/chat/oauth-callback")
        const replayed = await chatCallback(replaying, consent(platform, workspace("T0EVIL01")), state)
        assertInvalidChatState(replayed, USED)
        assert.strictEqual(Option.getOrThrow(await stored(run, team.id)).workspaceId, DEFAULT_WORKSPACE.id)
        assert.strictEqual(platform.requests("oauth.v2.access").length, 1, "the replayed code is never exchanged")
      })
    )

    it.effect("chat: a state carried to another browser is refused; the browser that started it still installs", () =>
      withChatApp(async (app, platform, run) => {
        const victim = await setUpKeyedTeam(app)
        const attacker = await setUpKeyedTeam(app)
        const victimBrowser = browserOf(app)
        const state = await startInstall(victimBrowser, platform, victim.owner)
        const bare = await chatCallback(browserOf(app), consent(platform, workspace("T0EVIL01")), state)
        assertInvalidChatState(bare, OTHER_BROWSER)
        const attackerBrowser = browserOf(app)
        await startInstall(attackerBrowser, platform, attacker.owner)
        const withOwnCookie = await chatCallback(attackerBrowser, consent(platform, workspace("T0EVIL02")), state)
        assertInvalidChatState(withOwnCookie, OTHER_BROWSER)
        assert.strictEqual(platform.requests("oauth.v2.access").length, 0, "nothing is exchanged")
        assert.isTrue(Option.isNone(await stored(run, victim.id)))
        assert.isTrue(Option.isNone(await stored(run, attacker.id)))

        const done = await chatCallback(victimBrowser, consent(platform), state)
        assert.strictEqual(done.status, 302, JSON.stringify(done.body))
        assert.strictEqual(Option.getOrThrow(await stored(run, victim.id)).workspaceId, DEFAULT_WORKSPACE.id)
      })
    )

    it.effect("chat: concurrent callbacks with one state install exactly once", () =>
      withChatApp(async (app, platform, run) => {
        const team = await setUpKeyedTeam(app)
        const browser = browserOf(app)
        const state = await startInstall(browser, platform, team.owner)
        const workspaces = Array.from({ length: 6 }, (_, i) => workspace(`T0RACE0${i}`))
        const answers = await Promise.all(workspaces.map((w) => chatCallback(browser, consent(platform, w), state)))
        assert.deepStrictEqual(
          outcomes(answers),
          { installed: 1, refused: 5 },
          JSON.stringify(answers.map((a) => a.body))
        )
        for (const refused of answers.filter((a) => a.status === 400)) assertInvalidChatState(refused, USED)
        assert.strictEqual(platform.requests("oauth.v2.access").length, 1)
        const attached = Option.getOrThrow(await stored(run, team.id)).workspaceId
        assert.include(
          workspaces.map((w) => w.id),
          attached
        )
      })
    )

    it.effect("mail: the install URL sets the browser's cookie for the callback only; the callback clears it", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const started = await browser.call("GET", "/apps/mail/install-url", { token: team.token })
        assert.strictEqual(started.status, 200, JSON.stringify(started.body))
        const [pair = "", ...attributes] = setCookie(started, "svc_mail_install")
        assert.isAtLeast(pair.length - "svc_mail_install=".length, 43, "a random value of 32 bytes")
        assert.includeMembers(
          attributes.map((a) => a.toLowerCase()),
          ["path=/apps/mail/oauth-callback", "httponly", "secure", "samesite=lax", "max-age=600"]
        )
        const state = new URL(started.body.url).searchParams.get("state") ?? ""
        const done = await mailCallback(browser, { code: provider.issue("ap@acme.example"), state })
        assert.strictEqual(done.status, 302, JSON.stringify(done.body))
        assert.include(setCookie(done, "svc_mail_install"), "Max-Age=0")
        assert.isFalse(browser.cookies().has("svc_mail_install"))
      })
    )

    it.effect("mail: a used state replayed with another code is refused, and adds no mailbox", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const state = await installState(browser, team.token)
        const cookie = browser.cookies().get("svc_mail_install") ?? ""
        const first = await mailCallback(browser, { code: provider.issue("ap@acme.example"), state })
        assert.strictEqual(first.headers.get("location"), `${INBOX_PAGE}?connected=1`)
        const replaying = browserOf(app)
        replaying.plant("svc_mail_install", cookie, "/apps/mail/oauth-callback")
        const replayed = await mailCallback(replaying, { code: provider.issue("attacker@evil.example"), state })
        assertInvalidMailState(replayed)
        assert.include(replayed.body.message, "used already")
        assert.deepStrictEqual(
          (await listAccounts(app, team.token)).map((a) => a.email),
          ["ap@acme.example"]
        )
        assert.strictEqual(provider.tokenRequests.length, 1, "the replayed code is never exchanged")
        replaying.plant("svc_mail_install", cookie, "/apps/mail/oauth-callback")
        const refusal = await mailCallback(replaying, { error: "access_denied", state })
        assertInvalidMailState(refusal)
      })
    )

    it.effect("mail: a state carried to another browser is refused; the browser that started it still connects", () =>
      withMail(async (app, _context, provider) => {
        const victim = await newTeam(app)
        const attacker = await newTeam(app)
        const victimBrowser = browserOf(app)
        const state = await installState(victimBrowser, victim.token)
        const bare = await mailCallback(browserOf(app), { code: provider.issue("attacker@evil.example"), state })
        assertInvalidMailState(bare)
        assert.include(bare.body.message, "not started in this browser")
        const attackerBrowser = browserOf(app)
        await installState(attackerBrowser, attacker.token)
        const withOwnCookie = await mailCallback(attackerBrowser, {
          code: provider.issue("attacker@evil.example"),
          state
        })
        assertInvalidMailState(withOwnCookie)
        assert.deepStrictEqual(provider.tokenRequests, [], "nothing is exchanged")
        assert.deepStrictEqual(await listAccounts(app, victim.token), [])

        const done = await mailCallback(victimBrowser, { code: provider.issue("ap@acme.example"), state })
        assert.strictEqual(done.status, 302, JSON.stringify(done.body))
        assert.deepStrictEqual(
          (await listAccounts(app, victim.token)).map((a) => a.email),
          ["ap@acme.example"]
        )
        assert.deepStrictEqual(await listAccounts(app, attacker.token), [])
      })
    )

    it.effect("mail: concurrent callbacks with one state connect exactly one mailbox", () =>
      withMail(async (app, _context, provider) => {
        const team = await newTeam(app)
        const browser = browserOf(app)
        const state = await installState(browser, team.token)
        const addresses = Array.from({ length: 6 }, (_, i) => `race-${i}@acme.example`)
        const answers = await Promise.all(
          addresses.map((email) => mailCallback(browser, { code: provider.issue(email), state }))
        )
        assert.deepStrictEqual(
          outcomes(answers),
          { installed: 1, refused: 5 },
          JSON.stringify(answers.map((a) => a.body))
        )
        assert.strictEqual(provider.tokenRequests.length, 1)
        const accounts = await listAccounts(app, team.token)
        assert.strictEqual(accounts.length, 1)
        assert.include(addresses, accounts[0]?.email)
      })
    )
  })

import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { Effect, type Layer } from "effect"
import { sessionToken } from "../support/InProcessApp.ts"
import { cookieOf, linkTokenMailedTo, type SignInApp, sessionSetCookie, withSignInApp } from "./DashboardSignInSetup.ts"

const BASE = "http://svc.test"
const INVALID_LINK = {
  error: "invalid_sign_in_link",
  code: 400,
  message: "this sign-in link is invalid, expired or already used; ask for a new one"
}
const MINUTE = 60_000

/** A user provisioned from a session JWT (as the service knows users today): id, e-mail and that JWT. */
const knownUser = async (app: SignInApp, email = `${crypto.randomUUID()}@example.com`) => {
  const id = crypto.randomUUID()
  const token = await sessionToken({ id, email, name: "Grace Hopper" })
  const me = await app.call("GET", "/users/me", { token })
  assert.strictEqual(me.status, 200, JSON.stringify(me.body))
  return { id, email, token }
}

/** Asks for a link for `email` and runs the sign-in pass, which mails it. */
const requestLink = async (app: SignInApp, email: string) => {
  const answer = await app.call("POST", "/auth/sign-in-links", { body: { email } })
  assert.strictEqual(answer.status, 202, JSON.stringify(answer.body))
  await app.sendLinks()
  return answer.body
}

/** Signs `email` in through a mailed link: the session body, the Set-Cookie header and the cookie to send. */
const signIn = async (app: SignInApp, email: string, baseUrl = BASE) => {
  await requestLink(app, email)
  const answer = await app.call("POST", "/auth/sessions", {
    body: { token: linkTokenMailedTo(app.mail(), email, baseUrl) }
  })
  assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
  const setCookie = sessionSetCookie(answer)
  return { body: answer.body, setCookie, cookie: cookieOf(setCookie), csrf: answer.body.csrfToken as string }
}

/** Dashboard sign-in over HTTP (ADR 0037), on whichever ports the caller provides. */
export const dashboardSignInHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`dashboard sign-in over HTTP (${name})`, (it) => {
    it.effect("a mailed link opens a cookie session that works where a session JWT does, never on /v1", () =>
      withSignInApp({}, async (app) => {
        const user = await knownUser(app)
        assert.strictEqual(
          (await app.call("POST", "/teams", { token: user.token, body: { name: "Acme" } })).status,
          201
        )

        const asked = await requestLink(app, `  ${user.email.toUpperCase()} `)
        assert.deepStrictEqual(asked, { object: "sign_in_link_request", email: user.email, localDelivery: null })
        assert.strictEqual(app.mail().length, 1)
        const token = linkTokenMailedTo(app.mail(), user.email, BASE)

        const opened = await app.call("POST", "/auth/sessions", { body: { token } })
        assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
        assert.deepStrictEqual(opened.body.user, { id: user.id, email: user.email, fullName: "Grace Hopper" })
        assert.strictEqual(opened.body.object, "dashboard_session")
        assert.match(opened.body.csrfToken, /^[A-Za-z0-9_-]{43}$/u)
        const setCookie = sessionSetCookie(opened)
        assert.match(setCookie, /^svc_session=svcsess_[A-Za-z0-9_-]{43}; /u)
        for (const part of ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=43200", "Secure"]) {
          assert.include(setCookie.split("; "), part, setCookie)
        }
        const expiresIn = Date.parse(opened.body.expiresAt) - Date.now()
        assert.isTrue(Math.abs(expiresIn - 12 * 3600_000) < MINUTE, opened.body.expiresAt)
        const cookie = cookieOf(setCookie)

        const current = await app.call("GET", "/auth/session", { headers: cookie })
        assert.strictEqual(current.status, 200, JSON.stringify(current.body))
        assert.deepStrictEqual(current.body, opened.body)
        const me = await app.call("GET", "/users/me", { headers: cookie })
        assert.strictEqual(me.status, 200, JSON.stringify(me.body))
        assert.strictEqual(me.body.id, user.id)
        assert.isNotNull(me.body.teamId)
        const approvals = await app.call("GET", "/treasury/approvals", { headers: cookie })
        assert.strictEqual(approvals.status, 200, JSON.stringify(approvals.body))
        assert.strictEqual((await app.call("GET", "/teams", { headers: cookie })).status, 200)

        for (const path of ["/v1/accounts", "/v1/balance"]) {
          const agent = await app.call("GET", path, { headers: cookie })
          assert.strictEqual(agent.status, 401, `${path} ${JSON.stringify(agent.body)}`)
        }
        assert.strictEqual((await app.call("GET", "/users/me")).status, 401)
        assert.strictEqual((await app.call("GET", "/auth/session")).status, 401)
        assert.strictEqual(
          (await app.call("GET", "/users/me", { headers: { cookie: "svc_session=svcsess_x" } })).status,
          401
        )

        const sessionBearer = setCookie.slice("svc_session=".length, setCookie.indexOf(";"))
        const bearer = await app.call("GET", "/users/me", { token: sessionBearer })
        assert.strictEqual(bearer.status, 200, "the session token works as a bearer token too")
        assert.strictEqual((await app.call("GET", "/users/me", { token: user.token })).status, 200)
        const other = await knownUser(app)
        const jwtWins = await app.call("GET", "/users/me", { token: other.token, headers: cookie })
        assert.strictEqual(jwtWins.body.id, other.id, "an Authorization header is used, not the cookie")

        const audit = await app.call("GET", "/treasury/audit", { headers: cookie })
        assert.strictEqual(audit.status, 200, JSON.stringify(audit.body))
        assert.include(JSON.stringify(audit.body), "dashboard_session.created")

        const reused = await app.call("POST", "/auth/sessions", { body: { token } })
        assert.strictEqual(reused.status, 400)
        assert.deepStrictEqual(reused.body, INVALID_LINK)
      })
    )

    it.effect("a personal token made with the cookie acts as its person, in their role, until revoked", () =>
      withSignInApp({}, async (app) => {
        const owner = await knownUser(app)
        const team = await app.call("POST", "/teams", { token: owner.token, body: { name: "Acme" } })
        assert.strictEqual(team.status, 201)
        const member = await knownUser(app)
        const invited = await app.call("POST", `/teams/${team.body.id}/invites`, {
          token: owner.token,
          body: { email: member.email, role: "member" }
        })
        assert.strictEqual(invited.status, 201, JSON.stringify(invited.body))
        const inviteToken = /"token": "([^"]+)"/u.exec(app.mail().findLast((m) => m.to === member.email)?.text ?? "")
        const joined = await app.call("POST", "/invites/accept", {
          token: member.token,
          body: { token: inviteToken?.[1] }
        })
        assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))

        const tokenOf = async (email: string, name: string) => {
          const { cookie, csrf } = await signIn(app, email)
          const made = await app.call("POST", "/auth/personal-tokens", {
            headers: { ...cookie, "x-csrf-token": csrf },
            body: { name }
          })
          assert.strictEqual(made.status, 201, JSON.stringify(made.body))
          return { made: made.body, cookie, csrf }
        }
        const mine = await tokenOf(owner.email, "laptop CLI")
        assert.match(mine.made.secret, /^svcsess_[A-Za-z0-9_-]{43}$/u)
        assert.strictEqual(mine.made.object, "personal_token")
        assert.strictEqual(mine.made.preview, `svcsess_…${mine.made.secret.slice(-4)}`)
        const lifetime = Date.parse(mine.made.expiresAt) - Date.parse(mine.made.createdAt)
        assert.strictEqual(lifetime, 90 * 86_400_000, "90 days unless chosen")
        const pat = mine.made.secret as string

        const me = await app.call("GET", "/users/me", { token: pat })
        assert.strictEqual(me.status, 200, JSON.stringify(me.body))
        assert.deepStrictEqual([me.body.id, me.body.teamId], [owner.id, team.body.id])
        assert.strictEqual((await app.call("GET", "/treasury/approvals", { token: pat })).status, 200)
        const rename = await app.call("PATCH", `/teams/${team.body.id}`, { token: pat, body: { name: "Acme Inc" } })
        assert.strictEqual(rename.status, 200, "an owner's token acts as an owner")
        assert.strictEqual((await app.call("GET", "/v1/balance", { token: pat })).status, 401, "never on /v1")

        const theirs = await tokenOf(member.email, "member CLI")
        const memberPat = theirs.made.secret as string
        const refused = await app.call("PATCH", `/teams/${team.body.id}`, { token: memberPat, body: { name: "Nope" } })
        assert.strictEqual(refused.status, 403, "a member's token acts as a member, no more")

        // A token is a bearer credential only: as a cookie, or as a bearer on the cookie-only routes, it makes nothing.
        const asCookie = { cookie: `svc_session=${pat}` }
        assert.strictEqual((await app.call("GET", "/auth/session", { headers: asCookie })).status, 401)
        assert.strictEqual((await app.call("GET", "/users/me", { headers: asCookie })).status, 401)
        const minted = await app.call("POST", "/auth/personal-tokens", { token: pat, body: { name: "more" } })
        assert.strictEqual(minted.status, 401)

        const listed = await app.call("GET", "/auth/personal-tokens", { headers: mine.cookie })
        assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
        assert.deepStrictEqual(
          listed.body.data,
          [{ ...mine.made, secret: undefined }].map(({ secret: _, ...view }) => view)
        )
        assert.notInclude(JSON.stringify(listed.body), pat)

        for (const [body, path] of [
          [{ name: "" }, "name"],
          [{ name: " padded " }, "name"],
          [{ name: "x".repeat(101) }, "name"],
          [{ name: "ok", expiresInDays: 0 }, "expiresInDays"],
          [{ name: "ok", expiresInDays: 366 }, "expiresInDays"],
          [{ name: "ok", expiresInDays: 1.5 }, "expiresInDays"]
        ] as const) {
          const bad = await app.call("POST", "/auth/personal-tokens", {
            headers: { ...mine.cookie, "x-csrf-token": mine.csrf },
            body
          })
          assert.strictEqual(bad.status, 400, JSON.stringify(body))
          assert.include(JSON.stringify(bad.body.details), path, JSON.stringify(bad.body))
        }

        const revokeAs = (session: { cookie: Record<string, string>; csrf: string }, id: string) =>
          app.call("DELETE", `/auth/personal-tokens/${id}`, {
            headers: { ...session.cookie, "x-csrf-token": session.csrf }
          })
        assert.strictEqual((await revokeAs(theirs, mine.made.id)).status, 404, "another person's token is not found")
        assert.strictEqual((await app.call("GET", "/users/me", { token: pat })).status, 200)
        const revoked = await revokeAs(mine, mine.made.id)
        assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
        assert.isString(revoked.body.revokedAt)
        assert.strictEqual((await app.call("GET", "/users/me", { token: pat })).status, 401, "refused at once")
        assert.strictEqual((await revokeAs(mine, mine.made.id)).status, 404)
        assert.deepStrictEqual((await app.call("GET", "/auth/personal-tokens", { headers: mine.cookie })).body.data, [])
        assert.strictEqual((await app.call("GET", "/users/me", { token: memberPat })).status, 200)

        const audit = await app.call("GET", "/treasury/audit", { headers: mine.cookie })
        for (const type of ["personal_token.created", "personal_token.revoked"]) {
          assert.include(JSON.stringify(audit.body), type)
        }
      })
    )

    it.effect("unsafe cookie requests need the session's CSRF token and, with an Origin, this origin", () =>
      withSignInApp({}, async (app) => {
        const user = await knownUser(app)
        const { cookie, csrf } = await signIn(app, user.email)
        const create = (headers: Record<string, string>) =>
          app.call("POST", "/teams", { headers: { ...cookie, ...headers }, body: { name: "Globex" } })
        const refusals = [
          {},
          { "x-csrf-token": "" },
          { "x-csrf-token": `${csrf.slice(0, -1)}A` === csrf ? `${csrf.slice(0, -1)}B` : `${csrf.slice(0, -1)}A` },
          { "x-csrf-token": csrf, origin: "https://evil.example" },
          { "x-csrf-token": csrf, origin: "http://svc.test:8080" }
        ]
        for (const headers of refusals) {
          const refused = await create(headers)
          assert.strictEqual(refused.status, 403, JSON.stringify(headers))
          assert.strictEqual(refused.body.error, "csrf_failed")
          assert.strictEqual(refused.body.code, 403)
        }
        assert.strictEqual((await create({ "x-csrf-token": csrf })).status, 201)
        assert.strictEqual((await create({ "x-csrf-token": csrf, origin: BASE })).status, 201)
        const teams = await app.call("GET", "/teams", { headers: cookie })
        assert.deepStrictEqual(
          teams.body.data.map((t: { name: string }) => t.name),
          ["Globex", "Globex"]
        )

        const patchMe = (headers: Record<string, string>) =>
          app.call("PATCH", "/users/me", { headers: { ...cookie, ...headers }, body: { fullName: "Grace B. Hopper" } })
        assert.deepStrictEqual((await patchMe({})).body.error, "csrf_failed", "PlatformAuth routes check it too")
        const patched = await patchMe({ "x-csrf-token": csrf })
        assert.deepStrictEqual([patched.status, patched.body.fullName], [200, "Grace B. Hopper"])

        const viaJwt = await app.call("POST", "/teams", {
          token: user.token,
          headers: { origin: "https://evil.example" },
          body: { name: "Initech" }
        })
        assert.strictEqual(viaJwt.status, 201, "a bearer request needs no CSRF token")
      })
    )

    it.effect("open sign-up: a new address gets a link, signs in without a team and creates one as its owner", () =>
      withSignInApp({}, async (app) => {
        const email = `${crypto.randomUUID()}@example.com`
        const { cookie, csrf, body } = await signIn(app, email)
        assert.strictEqual(body.user.email, email)
        const me = await app.call("GET", "/users/me", { headers: cookie })
        assert.deepStrictEqual([me.status, me.body.teamId], [200, null], "a newcomer has no team")
        const team = await app.call("POST", "/teams", {
          headers: { ...cookie, "x-csrf-token": csrf },
          body: { name: "Newco", baseCurrency: "EUR" }
        })
        assert.strictEqual(team.status, 201, JSON.stringify(team.body))
        assert.deepStrictEqual([team.body.name, team.body.baseCurrency, team.body.role], ["Newco", "EUR", "owner"])
        const after = await app.call("GET", "/users/me", { headers: cookie })
        assert.strictEqual(after.body.teamId, team.body.id, "the new team is the current one")
      })
    )

    it.effect(
      "with sign-up for the invited, unknown addresses get the same answer and no mail; bad links one 400",
      () =>
        withSignInApp({ dashboardSignUp: "invited" }, async (app) => {
          const user = await knownUser(app)
          const stranger = `${crypto.randomUUID()}@example.com`
          assert.deepStrictEqual(await requestLink(app, stranger.toUpperCase()), {
            object: "sign_in_link_request",
            email: stranger,
            localDelivery: null
          })
          assert.deepStrictEqual(app.mail(), [])

          const invalid = await app.call("POST", "/auth/sign-in-links", { body: { email: "not-an-address" } })
          assert.strictEqual(invalid.status, 400)
          assert.include(JSON.stringify(invalid.body.details), "email")

          const unknown = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")
          for (const token of ["x", "svcsess_abc", unknown, `${unknown}=`]) {
            const refused = await app.call("POST", "/auth/sessions", { body: { token } })
            assert.deepStrictEqual([refused.status, refused.body], [400, INVALID_LINK], token)
          }

          await requestLink(app, user.email)
          const token = linkTokenMailedTo(app.mail(), user.email, BASE)
          app.advance(15 * MINUTE)
          const expired = await app.call("POST", "/auth/sessions", { body: { token } })
          assert.deepStrictEqual([expired.status, expired.body], [400, INVALID_LINK])
        })
    )

    it.effect("at most 5 links per address and client per 15 minutes, quietly", () =>
      withSignInApp({}, async (app) => {
        const user = await knownUser(app)
        for (let i = 0; i < 7; i++) {
          assert.deepStrictEqual(await requestLink(app, user.email), {
            object: "sign_in_link_request",
            email: user.email,
            localDelivery: null
          })
        }
        assert.strictEqual(app.mail().length, 5)
        app.advance(15 * MINUTE + 1000)
        await requestLink(app, user.email)
        assert.strictEqual(app.mail().length, 6)
      })
    )

    it.effect("of two concurrent uses of one link exactly one opens a session", () =>
      withSignInApp({}, async (app) => {
        const user = await knownUser(app)
        await requestLink(app, user.email)
        const token = linkTokenMailedTo(app.mail(), user.email, BASE)
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => app.call("POST", "/auth/sessions", { body: { token } }))
        )
        assert.deepStrictEqual(
          answers.map((a) => a.status).toSorted(),
          [201, 400, 400, 400],
          JSON.stringify(answers.map((a) => a.body))
        )
      })
    )

    it.effect("signing out revokes the session at once and clears the cookie", () =>
      withSignInApp({}, async (app) => {
        const user = await knownUser(app)
        const { cookie, csrf } = await signIn(app, user.email)
        const second = await signIn(app, user.email)
        const noCsrf = await app.call("DELETE", "/auth/session", { headers: cookie })
        assert.deepStrictEqual([noCsrf.status, noCsrf.body?.error], [403, "csrf_failed"])
        const out = await app.call("DELETE", "/auth/session", { headers: { ...cookie, "x-csrf-token": csrf } })
        assert.strictEqual(out.status, 204, JSON.stringify(out.body))
        const cleared = sessionSetCookie(out)
        assert.match(cleared, /^svc_session=; /u)
        assert.include(cleared.split("; "), "Max-Age=0")
        assert.include(cleared.split("; "), "HttpOnly")
        for (const path of ["/auth/session", "/users/me", "/treasury/approvals"]) {
          const after = await app.call("GET", path, { headers: cookie })
          assert.strictEqual(after.status, 401, `${path} ${JSON.stringify(after.body)}`)
          assert.strictEqual(after.body.error, "unauthorized")
        }
        const again = await app.call("DELETE", "/auth/session", { headers: { ...cookie, "x-csrf-token": csrf } })
        assert.strictEqual(again.status, 401)
        assert.strictEqual((await app.call("GET", "/users/me", { headers: second.cookie })).status, 200)
      })
    )

    it.effect("a session expires after DASHBOARD_SESSION_TTL_SECONDS", () =>
      withSignInApp({ dashboardSessionTtlSeconds: 600 }, async (app) => {
        const user = await knownUser(app)
        const { cookie, setCookie } = await signIn(app, user.email)
        assert.include(setCookie.split("; "), "Max-Age=600")
        app.advance(9 * MINUTE)
        assert.strictEqual((await app.call("GET", "/auth/session", { headers: cookie })).status, 200)
        app.advance(MINUTE)
        assert.strictEqual((await app.call("GET", "/auth/session", { headers: cookie })).status, 401)
        assert.strictEqual((await app.call("GET", "/users/me", { headers: cookie })).status, 401)
      })
    )

    it.effect("the cookie is Secure except on a loopback PUBLIC_BASE_URL", () =>
      withSignInApp({ publicBaseUrl: "http://localhost:3000" }, async (app) => {
        const user = await knownUser(app)
        const local = await signIn(app, user.email, "http://localhost:3000")
        assert.notInclude(local.setCookie.split("; "), "Secure")
        const create = await app.call("POST", "/teams", {
          headers: { ...local.cookie, "x-csrf-token": local.csrf, origin: "http://localhost:3000" },
          body: { name: "Local" }
        })
        assert.strictEqual(create.status, 201, JSON.stringify(create.body))
      }).pipe(
        Effect.andThen(
          withSignInApp({ publicBaseUrl: "https://dash.example.com" }, async (app) => {
            const user = await knownUser(app)
            const { setCookie } = await signIn(app, user.email, "https://dash.example.com")
            assert.include(setCookie.split("; "), "Secure")
          })
        )
      )
    )
  })

import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

const preferences = {
  fullName: "Ada Lovelace",
  locale: "sv-SE",
  timezone: "Europe/Stockholm",
  timezoneAutoSync: false,
  weekStartsOnMonday: true,
  timeFormat: 24,
  dateFormat: "yyyy-MM-dd"
}

twinSuite("the user profile", (it) => {
  it.effect("GET /users/me answers the team and null preferences; PATCH sets and clears them", () =>
    withAppOnPorts(async (app) => {
      const team = await financeTeam(app, "EUR")
      const token = team.owner
      const fresh = await app.call("GET", "/users/me", { token })
      assert.strictEqual(fresh.status, 200, JSON.stringify(fresh.body))
      assert.deepInclude(fresh.body, {
        teamId: team.id,
        team: { id: team.id, name: "Team", baseCurrency: "EUR" },
        locale: null,
        timezone: null,
        timezoneAutoSync: null,
        weekStartsOnMonday: null,
        timeFormat: null,
        dateFormat: null
      })
      assert.isString(fresh.body.fileKey)

      const updated = await app.call("PATCH", "/users/me", { token, body: preferences })
      assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
      assert.deepStrictEqual(updated.body, { ...fresh.body, ...preferences })
      assert.deepStrictEqual((await app.call("GET", "/users/me", { token })).body, updated.body)

      const cleared = await app.call("PATCH", "/users/me", { token, body: { timezone: null, locale: "en" } })
      assert.deepStrictEqual(cleared.body, { ...updated.body, timezone: null, locale: "en" })
    })
  )

  it.effect("an unknown time zone, a bad locale or date format, and the e-mail are refused naming the field", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      assertInvalid(await app.call("PATCH", "/users/me", { token, body: { timezone: "Mars/Olympus" } }), "timezone")
      assertInvalid(await app.call("PATCH", "/users/me", { token, body: { locale: "not a locale" } }), "locale")
      assertInvalid(await app.call("PATCH", "/users/me", { token, body: { dateFormat: "dd-MM-yy" } }), "dateFormat")
      assertInvalid(await app.call("PATCH", "/users/me", { token, body: { timeFormat: 13 } }), "timeFormat")
      assertInvalid(await app.call("PATCH", "/users/me", { token, body: { email: "someone@example.com" } }), "email")
      assert.strictEqual((await app.call("GET", "/users/me", { token })).body.timezone, null)
    })
  )

  it.effect("an API key's profile shows the key's team", () =>
    withAppOnPorts(async (app) => {
      const team = await financeTeam(app)
      const key = await app.call("POST", "/api-keys", {
        token: team.owner,
        body: { name: "twin", scopes: ["users.read"] }
      })
      assert.strictEqual(key.status, 201, JSON.stringify(key.body))
      const me = await app.call("GET", "/users/me", { token: key.body.secret })
      assert.strictEqual(me.status, 200, JSON.stringify(me.body))
      assert.deepStrictEqual(me.body.team, { id: team.id, name: "Team", baseCurrency: "USD" })
    })
  )
})

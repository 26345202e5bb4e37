import { assert, describe, it } from "@effect/vitest"
import { teamApiKey, twoTeamsApp } from "./TransfersHttpSetup.ts"

const { app, teams } = twoTeamsApp()

const own = (key: string) => app.call("GET", "/v1/transfers/receive-address", { token: key })
const resolve = (key: string, address: string) =>
  app.call("GET", `/v1/transfers/receive-addresses/${encodeURIComponent(address)}`, { token: key })

describe("GET /v1/transfers/receive-address", () => {
  it("answers the caller's own address in its key's mode, one handle for both modes", async () => {
    const test = await own(teams.acme.testKey)
    assert.strictEqual(test.status, 200)
    assert.match(test.body.address, /^acme-[23456789a-hjkmnp-z]{4}@test\.svc$/u)
    assert.deepStrictEqual(test.body, {
      object: "receive_address",
      address: test.body.address,
      teamName: "Acme",
      mode: "test"
    })
    const live = await own(teams.acme.liveKey)
    assert.deepStrictEqual(live.body, {
      object: "receive_address",
      address: test.body.address.replace("@test.svc", "@svc"),
      teamName: "Acme",
      mode: "live"
    })
    assert.notStrictEqual((await own(teams.globex.testKey)).body.address, test.body.address)
  })

  it("needs spend.read (403 insufficient_scope) and a key (401)", async () => {
    const key = await teamApiKey(app, teams.acme, ["accounts.read"])
    const denied = await own(key)
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
    assert.include(denied.body.message, "spend.read")
    assert.strictEqual((await own(await teamApiKey(app, teams.acme, ["spend.read"]))).status, 200)
    assert.strictEqual((await app.call("GET", "/v1/transfers/receive-address")).status, 401)
  })
})

describe("GET /v1/transfers/receive-addresses/:address", () => {
  it("resolves another team's address of the same mode, in any case", async () => {
    const globex = (await own(teams.globex.testKey)).body
    const answer = await resolve(teams.acme.testKey, globex.address)
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body, globex)
    assert.deepStrictEqual((await resolve(teams.acme.testKey, globex.address.toUpperCase())).body, globex)
    const liveGlobex = (await own(teams.globex.liveKey)).body
    assert.deepStrictEqual((await resolve(teams.acme.liveKey, liveGlobex.address)).body, liveGlobex)
  })

  it("answers 404 for the other mode's address, both ways", async () => {
    const test = (await own(teams.globex.testKey)).body.address
    const live = (await own(teams.globex.liveKey)).body.address
    for (const [key, address] of [
      [teams.acme.liveKey, test],
      [teams.acme.testKey, live]
    ] as const) {
      const answer = await resolve(key, address)
      assert.strictEqual(answer.status, 404)
      assert.deepStrictEqual(answer.body, { error: "not_found", code: 404, message: `no receive address ${address}` })
    }
  })

  it("answers 404 for an unknown or malformed address, 403 without spend.read", async () => {
    assert.strictEqual((await resolve(teams.acme.testKey, "nobody-2222@test.svc")).status, 404)
    assert.strictEqual((await resolve(teams.acme.testKey, "not-an-address")).status, 404)
    const globex = (await own(teams.globex.testKey)).body.address
    const denied = await resolve(await teamApiKey(app, teams.acme, ["accounts.read"]), globex)
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
  })
})

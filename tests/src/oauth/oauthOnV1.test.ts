import { assert, describe, it } from "@effect/vitest"
import { Api } from "@svc/adapters-http/api"
import { HttpApi } from "effect/http-api"
import { oauthFlows } from "../support/OAuthFlows.ts"

const { app, granted } = oauthFlows()

/** Every /v1 route of the contract, as its HttpApi definition lists them. */
const v1Routes = (() => {
  const routes: Array<{ readonly method: string; readonly path: string }> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      if (endpoint.path.startsWith("/v1/")) routes.push({ method: endpoint.method, path: endpoint.path })
    }
  })
  return routes
})()

/** A concrete URL of a route: each path parameter filled with a UUID. */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/gu, () => crypto.randomUUID())

const ALL_SPEND_SCOPES = ["spend.read", "spend.write", "accounts.read"]

describe("an OAuth access token on /v1", () => {
  it("gets 401 on every /v1 route of the contract, the challenge naming the credentials /v1 takes", async () => {
    assert.isAtLeast(v1Routes.length, 20, "the contract's /v1 routes were found")
    assert.deepInclude(v1Routes, { method: "GET", path: "/v1/balance" })
    assert.deepInclude(v1Routes, { method: "POST", path: "/v1/spend-requests" })
    const { tokens } = await granted(ALL_SPEND_SCOPES)
    for (const { method, path } of v1Routes) {
      const reply = await app.call(method, concrete(path), {
        token: tokens.access_token,
        headers: { "idempotency-key": crypto.randomUUID() },
        ...(method === "GET" || method === "DELETE" ? {} : { json: {} })
      })
      const route = `${method} ${path}`
      assert.strictEqual(reply.status, 401, `${route}: ${JSON.stringify(reply.body)}`)
      assert.strictEqual(reply.body.error, "unauthorized", route)
      assert.strictEqual(reply.body.code, 401, route)
      assert.match(reply.body.message, /OAuth access token is not accepted/u, route)
      const challenge = reply.headers.get("www-authenticate") ?? ""
      assert.match(challenge, /^Bearer error="invalid_token"/u, route)
      assert.match(challenge, /spending key \(svc_ or svc_test_\) or a team API key \(svcteam_\)/u, route)
    }
  })

  it("is refused on /v1 without issuing any key, while the same token still reads /treasury", async () => {
    const { user, tokens } = await granted(ALL_SPEND_SCOPES)
    const token = tokens.access_token
    assert.strictEqual((await app.call("GET", "/v1/balance", { token })).status, 401)
    const accounts = await app.call("GET", "/treasury/accounts", { token })
    assert.strictEqual(accounts.status, 200, JSON.stringify(accounts.body))
    const keys = await app.call("GET", "/treasury/team-api-keys", { token: user.token })
    assert.strictEqual(keys.status, 200, JSON.stringify(keys.body))
    assert.deepStrictEqual(keys.body.data, [], "a refused /v1 call issues no key for the app")
  })

  it("an unknown or revoked access token gets the same 401 on /v1", async () => {
    const unknown = await app.call("GET", "/v1/balance", { token: "mid_access_token_unknown" })
    assert.strictEqual(unknown.status, 401)
    assert.match(unknown.headers.get("www-authenticate") ?? "", /invalid_token/u)
    const { client, tokens } = await granted(["spend.read", "accounts.read"])
    const revoked = await app.call("POST", "/oauth/revoke", {
      form: { token: tokens.access_token, client_id: client.client_id }
    })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await app.call("GET", "/v1/balance", { token: tokens.access_token })).status, 401)
  })
})

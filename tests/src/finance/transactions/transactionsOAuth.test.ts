import { assert, describe, it } from "vitest"
import { oauthFlows } from "../../support/OAuthFlows.ts"

const { app, granted } = oauthFlows()

const body = { name: "Coffee", date: "2026-03-01", amount: -4.5, currency: "USD" }

describe("OAuth tokens on the transactions routes", () => {
  it("read with transactions.read, write with transactions.write, and see only the granting team", async () => {
    const reader = await granted(["transactions.read"])
    const writer = await granted(["transactions.write", "transactions.read"])
    const read = (token: string, path = "/transactions") => app.call("GET", path, { token })

    assert.strictEqual((await read(reader.tokens.access_token)).status, 200)
    const refused = await app.call("POST", "/transactions", { token: reader.tokens.access_token, json: body })
    assert.strictEqual(refused.status, 403)
    assert.strictEqual(refused.body.error, "insufficient_scope")
    assert.match(refused.body.message, /transactions\.write/)

    const created = await app.call("POST", "/transactions", { token: writer.tokens.access_token, json: body })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    assert.strictEqual((await read(writer.tokens.access_token, `/transactions/${created.body.id}`)).status, 200)
    assert.strictEqual(
      (await read(reader.tokens.access_token, `/transactions/${created.body.id}`)).status,
      404,
      "another team's transaction"
    )
    const session = await read(writer.user.token)
    assert.deepStrictEqual(
      session.body.data.map((t: { id: string }) => t.id),
      [created.body.id],
      "the team's session sees the token's transaction"
    )

    const unscoped = await granted(["users.read"])
    const answer = await read(unscoped.tokens.access_token)
    assert.strictEqual(answer.status, 403)
    assert.match(answer.body.message, /transactions\.read/)
  })
})

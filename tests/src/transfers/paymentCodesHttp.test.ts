import { assert, describe, it } from "@effect/vitest"
import { teamApiKey, twoTeamsApp } from "./TransfersHttpSetup.ts"

const { app, teams, createCode } = twoTeamsApp()

const get = (key: string, code: string) =>
  app.call("GET", `/v1/transfers/payment-codes/${encodeURIComponent(code)}`, { token: key })

describe("POST /v1/transfers/payment-codes", () => {
  it("creates an active code paying to the caller's address, with the amount and memo it fixes", async () => {
    const address = (await app.call("GET", "/v1/transfers/receive-address", { token: teams.acme.testKey })).body.address
    const answer = await createCode(teams.acme.testKey, {
      amount: 1_250,
      memo: "March invoice",
      expiresInSeconds: 3_600
    })
    assert.strictEqual(answer.status, 201)
    const body = answer.body
    assert.match(body.code, /^PC-[23456789A-HJKMNP-Z]{8}$/u)
    assert.deepStrictEqual(body, {
      object: "payment_code",
      code: body.code,
      address,
      teamName: "Acme",
      mode: "test",
      amount: 1_250,
      currency: "USD",
      memo: "March invoice",
      status: "active",
      expiresAt: body.expiresAt,
      usedAt: null,
      createdAt: body.createdAt
    })
    assert.strictEqual(Date.parse(body.expiresAt) - Date.parse(body.createdAt), 3_600_000)
  })

  it("without amount or memo leaves both open and expires in 7 days; currency USD is accepted", async () => {
    const answer = await createCode(teams.acme.liveKey, { currency: "USD" })
    assert.strictEqual(answer.status, 201)
    assert.strictEqual(answer.body.mode, "live")
    assert.match(answer.body.address, /@svc$/u)
    assert.isNull(answer.body.amount)
    assert.isNull(answer.body.memo)
    assert.strictEqual(Date.parse(answer.body.expiresAt) - Date.parse(answer.body.createdAt), 7 * 86_400_000)
  })

  it("replays a retry with the same Idempotency-Key and refuses another body under it with 422", async () => {
    const key = crypto.randomUUID()
    const first = await createCode(teams.acme.testKey, { amount: 500 }, key)
    const replay = await createCode(teams.acme.testKey, { amount: 500 }, key)
    assert.strictEqual(replay.status, 201)
    assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
    assert.deepStrictEqual(replay.body, first.body)
    const other = await createCode(teams.acme.testKey, { amount: 600 }, key)
    assert.strictEqual(other.status, 422)
    assert.strictEqual(other.body.error, "idempotency_key_reused")
  })

  it("requires the Idempotency-Key header", async () => {
    const answer = await app.call("POST", "/v1/transfers/payment-codes", { token: teams.acme.testKey, body: {} })
    assert.strictEqual(answer.status, 400)
    assert.strictEqual(answer.body.error, "idempotency_key_required")
  })

  it("answers 400 validation_failed naming each invalid field, and creates nothing", async () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ amount: 0 }, "amount"],
      [{ amount: -5 }, "amount"],
      [{ amount: 1.5 }, "amount"],
      [{ amount: "100" }, "amount"],
      [{ memo: "x".repeat(501) }, "memo"],
      [{ expiresInSeconds: 59 }, "expiresInSeconds"],
      [{ expiresInSeconds: 30 * 86_400 + 1 }, "expiresInSeconds"],
      [{ currency: "EUR" }, "currency"],
      [{ payee: "someone" }, "payee"]
    ]
    for (const [body, field] of cases) {
      const answer = await createCode(teams.acme.testKey, body)
      assert.strictEqual(answer.status, 400, JSON.stringify(body))
      assert.strictEqual(answer.body.error, "validation_failed")
      assert.deepStrictEqual(
        answer.body.details.map((d: { path: string }) => d.path),
        [field],
        JSON.stringify(body)
      )
    }
    assert.strictEqual((await createCode(teams.acme.testKey, { memo: "x".repeat(500) })).status, 201)
  })

  it("needs spend.write: a read-only key gets 403 insufficient_scope", async () => {
    const denied = await createCode(await teamApiKey(app, teams.acme, ["spend.read"]), {})
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
    assert.include(denied.body.message, "spend.write")
  })
})

describe("GET /v1/transfers/payment-codes/:code", () => {
  it("resolves a code for any key of its mode, in any case", async () => {
    const created = (await createCode(teams.acme.testKey, { amount: 700, memo: "lunch" })).body
    const answer = await get(teams.globex.testKey, created.code)
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body, created)
    assert.deepStrictEqual((await get(teams.acme.testKey, created.code.toLowerCase())).body, created)
  })

  it("answers 404 for the other mode's code, an unknown code and a malformed one", async () => {
    const test = (await createCode(teams.acme.testKey, {})).body.code
    const live = (await createCode(teams.acme.liveKey, {})).body.code
    for (const [key, code] of [
      [teams.globex.liveKey, test],
      [teams.globex.testKey, live],
      [teams.globex.testKey, "PC-22222222"],
      [teams.globex.testKey, "nonsense"]
    ] as const) {
      const answer = await get(key, code)
      assert.strictEqual(answer.status, 404, code)
      assert.deepStrictEqual(answer.body, { error: "not_found", code: 404, message: `no payment code ${code}` })
    }
  })

  it("needs spend.read", async () => {
    const code = (await createCode(teams.acme.testKey, {})).body.code
    const denied = await get(await teamApiKey(app, teams.globex, ["accounts.read"]), code)
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
  })
})

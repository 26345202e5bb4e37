import { assert, describe, it } from "@effect/vitest"
import { acmeApp, spendBody } from "./SpendHttpSetup.ts"

const { app, acme } = acmeApp()

describe("idempotency of POST /v1/spend-requests", () => {
  const raw = (key: string | undefined, body: unknown) =>
    app.call("POST", "/v1/spend-requests", {
      token: acme.testKey,
      body,
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
    })

  it("requires an Idempotency-Key", async () => {
    const answer = await raw(undefined, spendBody(100))
    assert.strictEqual(answer.status, 400)
    assert.strictEqual(answer.body.error, "idempotency_key_required")
  })

  it("replays the first answer for the same key and body, and spends once", async () => {
    const key = crypto.randomUUID()
    const before = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    const first = await raw(key, spendBody(700))
    const again = await raw(key, spendBody(700))
    assert.strictEqual(first.status, 201)
    assert.strictEqual(again.status, 201)
    assert.deepStrictEqual(again.body, first.body)
    assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
    assert.isNull(first.headers.get("idempotent-replayed"))
    const after = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    assert.strictEqual(before.available - after.available, 700)
  })

  it("refuses the same key with a different body (422) and still spends once", async () => {
    const key = crypto.randomUUID()
    assert.strictEqual((await raw(key, spendBody(300))).status, 201)
    const reused = await raw(key, spendBody(301))
    assert.strictEqual(reused.status, 422)
    assert.strictEqual(reused.body.error, "idempotency_key_reused")
  })

  it("concurrent requests with one key create one spend request; the others wait their turn or replay", async () => {
    const key = crypto.randomUUID()
    const before = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    const answers = await Promise.all(Array.from({ length: 8 }, () => raw(key, spendBody(50))))
    const created = answers.filter((a) => a.status === 201)
    assert.isTrue(answers.every((a) => a.status === 201 || a.status === 409))
    assert.isTrue(created.every((a) => a.body.id === created[0]?.body.id))
    assert.isTrue(answers.filter((a) => a.status === 409).every((a) => a.headers.get("retry-after") === "1"))
    const after = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    assert.strictEqual(before.available - after.available, 50)
  })

  it("replays a finished request to any number of concurrent retries, never 409", async () => {
    const key = crypto.randomUUID()
    const first = await raw(key, spendBody(25))
    const retries = await Promise.all(Array.from({ length: 10 }, () => raw(key, spendBody(25))))
    assert.deepStrictEqual(
      retries.map((r) => [r.status, r.headers.get("idempotent-replayed"), r.body.id]),
      retries.map(() => [201, "true", first.body.id])
    )
  })

  it("does not store a 400, so the corrected retry with the same key runs", async () => {
    const key = crypto.randomUUID()
    assert.strictEqual((await raw(key, { ...spendBody(100), currency: "usd" })).status, 400)
    const corrected = await raw(key, spendBody(100))
    assert.strictEqual(corrected.status, 201)
    assert.isNull(corrected.headers.get("idempotent-replayed"))
  })

  it("covers every /v1 POST: a retried deposit credits once, a retried cancel replays its 200", async () => {
    const before = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    const depositKey = crypto.randomUUID()
    const deposit = () =>
      app.call("POST", "/v1/test-helpers/deposits", {
        token: acme.testKey,
        body: { amount: 1_234, currency: "USD" },
        headers: { "idempotency-key": depositKey }
      })
    const [first, retry] = [await deposit(), await deposit()]
    assert.deepStrictEqual([first.status, retry.status], [201, 201])
    assert.deepStrictEqual(retry.body, first.body)
    assert.strictEqual(retry.headers.get("idempotent-replayed"), "true")
    const after = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    assert.strictEqual(after.posted - before.posted, 1_234)

    const pending = (await raw(crypto.randomUUID(), spendBody(5_100))).body
    const cancelKey = crypto.randomUUID()
    const cancel = () =>
      app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
        token: acme.testKey,
        headers: { "idempotency-key": cancelKey }
      })
    const [canceled, again] = [await cancel(), await cancel()]
    assert.deepStrictEqual([canceled.status, again.status], [200, 200])
    assert.strictEqual(again.body.status, "canceled")
    assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
  })

  it("applies to POSTs only: a GET with an Idempotency-Key always reads the current state", async () => {
    const key = crypto.randomUUID()
    const pending = (await raw(crypto.randomUUID(), spendBody(5_500))).body
    const read = () =>
      app.call("GET", `/v1/spend-requests/${pending.id}`, { token: acme.testKey, headers: { "idempotency-key": key } })
    assert.strictEqual((await read()).body.status, "pending_approval")
    await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: acme.testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const after = await read()
    assert.strictEqual(after.body.status, "canceled")
    assert.isNull(after.headers.get("idempotent-replayed"))
  })

  it("carries the rate-limit headers on every /v1 answer", async () => {
    const answer = await raw(crypto.randomUUID(), spendBody(10))
    for (const header of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) {
      assert.isNotNull(answer.headers.get(header), header)
    }
  })
})

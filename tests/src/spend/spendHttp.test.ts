import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { inProcessApp, sessionToken } from "../support/InProcessApp.ts"

const app = inProcessApp()
afterAll(() => app.dispose())

let owner: string
let testKey: string
let liveKey: string
let keyId: string

const spendBody = (amount: number, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens for the nightly run",
  ...extra
})

const create = (key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", "/v1/spend-requests", { token: key, body, headers: { "idempotency-key": idempotencyKey } })

beforeAll(async () => {
  owner = await sessionToken({ email: "owner@acme.test" })
  assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })).status, 201)
  const test = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "agent", mode: "test", policy: { approvalThreshold: 5_000, perRequestLimit: 50_000 } }
  })
  assert.strictEqual(test.status, 201)
  testKey = test.body.secret
  keyId = test.body.id
  const live = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "live", mode: "live", policy: {} }
  })
  liveKey = live.body.secret
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: testKey,
    body: { amount: 20_000, currency: "USD" }
  })
  assert.strictEqual(deposit.status, 201)
  assert.deepStrictEqual(deposit.body.balance, { posted: 20_000, pending: 0, available: 20_000 })
})

describe("spending keys", () => {
  it("are returned once with their prefix and never listed with the secret", async () => {
    assert.match(testKey, /^svc_test_/)
    assert.match(liveKey, /^svc_(?!test_)/)
    const list = await app.call("GET", "/treasury/spending-keys", { token: owner })
    assert.strictEqual(list.status, 200)
    assert.isTrue(list.body.data.every((k: Record<string, unknown>) => !("secret" in k)))
    assert.isFalse(JSON.stringify(list.body).includes(testKey))
  })

  it("are refused for a member who is not owner or admin, and for a user without a team", async () => {
    const stranger = await sessionToken()
    const answer = await app.call("GET", "/treasury/spending-keys", { token: stranger })
    assert.strictEqual(answer.status, 403)
    assert.strictEqual(answer.body.error, "team_required")
  })

  it("reject an invalid policy naming each field", async () => {
    const answer = await app.call("POST", "/treasury/spending-keys", {
      token: owner,
      body: {
        name: "",
        mode: "sandbox",
        policy: { perRequestLimit: -1, allowedCategories: ["Bad Slug"], approvalTtlSeconds: 1 }
      }
    })
    assert.strictEqual(answer.status, 400)
    const paths = [...new Set(answer.body.details.map((d: { path: string }) => d.path))].toSorted()
    assert.deepStrictEqual(paths, [
      "mode",
      "name",
      "policy.allowedCategories.0",
      "policy.approvalTtlSeconds",
      "policy.perRequestLimit"
    ])
  })
})

describe("POST /v1/spend-requests", () => {
  it("approves within policy, posts to the ledger and answers the contract shape", async () => {
    const answer = await create(testKey, spendBody(1_999, { metadata: { run: "nightly" } }))
    assert.strictEqual(answer.status, 201)
    const sr = answer.body
    assert.strictEqual(sr.object, "spend_request")
    assert.strictEqual(sr.status, "approved")
    assert.strictEqual(sr.mode, "test")
    assert.strictEqual(sr.amount, 1_999)
    assert.strictEqual(sr.spendingKeyId, keyId)
    assert.deepStrictEqual(sr.decision, { outcome: "approved", reasons: [] })
    assert.deepStrictEqual(sr.metadata, { run: "nightly" })
    assert.isNull(sr.approval)
    assert.isString(sr.ledgerTransactionId)
    const read = await app.call("GET", `/v1/spend-requests/${sr.id}`, { token: testKey })
    assert.deepStrictEqual(read.body, sr)
  })

  it("routes a request at the threshold to approval; an owner approves it once; a second decision is 409", async () => {
    const pending = (await create(testKey, spendBody(5_000))).body
    assert.strictEqual(pending.status, "pending_approval")
    assert.strictEqual(pending.approval.status, "pending")
    const balance = (await app.call("GET", "/v1/balance", { token: testKey })).body
    assert.isAtLeast(balance.pending, 5_000)
    const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: owner })
    assert.isTrue(queue.body.data.some((a: { id: string }) => a.id === pending.approval.id))
    const approved = await app.call("POST", `/treasury/approvals/${pending.approval.id}/approve`, {
      token: owner,
      body: { note: "fine" }
    })
    assert.strictEqual(approved.status, 200)
    assert.strictEqual(approved.body.status, "approved")
    assert.strictEqual(approved.body.spendRequest.status, "approved")
    assert.strictEqual(approved.body.note, "fine")
    const again = await app.call("POST", `/treasury/approvals/${pending.approval.id}/deny`, { token: owner, body: {} })
    assert.strictEqual(again.status, 409)
    assert.strictEqual(again.body.error, "approval_not_pending")
  })

  it("lets the agent cancel a pending request and releases the hold; canceling a final one is 409", async () => {
    const before = (await app.call("GET", "/v1/balance", { token: testKey })).body
    const pending = (await create(testKey, spendBody(6_000))).body
    const canceled = await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(canceled.status, 200)
    assert.strictEqual(canceled.body.status, "canceled")
    assert.deepStrictEqual((await app.call("GET", "/v1/balance", { token: testKey })).body, before)
    const twice = await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(twice.status, 409)
  })

  it("denies over the per-request limit and over funds with their reason codes", async () => {
    const answer = await create(testKey, spendBody(60_000))
    assert.strictEqual(answer.status, 201)
    assert.strictEqual(answer.body.status, "denied")
    assert.deepStrictEqual(
      answer.body.decision.reasons.map((r: { code: string }) => r.code),
      ["amount_over_limit", "insufficient_funds"]
    )
  })

  it("answers 400 naming every bad field, never a 500", async () => {
    const cases: Array<[unknown, ReadonlyArray<string>]> = [
      [{}, ["amount", "currency", "merchant", "purpose"]],
      [spendBody(0), ["amount"]],
      [spendBody(-5), ["amount"]],
      [spendBody(10.5), ["amount"]],
      [spendBody(Number.MAX_SAFE_INTEGER + 1), ["amount"]],
      [{ ...spendBody(100), amount: "100" }, ["amount"]],
      [{ ...spendBody(100), currency: "usd" }, ["currency"]],
      [{ ...spendBody(100), merchant: { name: "" } }, ["merchant.name"]],
      [{ ...spendBody(100), merchant: { name: "X", category: "Software!" } }, ["merchant.category"]],
      [{ ...spendBody(100), merchant: { name: "X", url: "ftp://x" } }, ["merchant.url"]],
      [{ ...spendBody(100), purpose: "x".repeat(1001) }, ["purpose"]],
      [{ ...spendBody(100), accountId: "nope" }, ["accountId"]],
      [
        { ...spendBody(100), metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) },
        ["metadata"]
      ],
      [{ ...spendBody(100), metadata: { k: "v".repeat(501) } }, ["metadata.k"]],
      [{ ...spendBody(100), surprise: true }, ["surprise"]]
    ]
    for (const [body, paths] of cases) {
      const answer = await create(testKey, body)
      assert.strictEqual(answer.status, 400, JSON.stringify(body).slice(0, 80))
      assert.strictEqual(answer.body.error, "validation_failed")
      assert.deepStrictEqual(
        [...new Set(answer.body.details.map((d: { path: string }) => d.path))].toSorted(),
        [...paths].toSorted(),
        JSON.stringify(answer.body.details)
      )
    }
    const currency = await create(testKey, { ...spendBody(100), currency: "EUR" })
    assert.strictEqual(currency.status, 400)
    assert.strictEqual(currency.body.details[0].path, "currency")
  })

  it("keeps live and test apart and teams apart (404)", async () => {
    const mine = (await create(testKey, spendBody(100))).body
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${mine.id}`, { token: liveKey })).status, 404)
    const other = await sessionToken()
    await app.call("POST", "/teams", { token: other, body: { name: "Other" } })
    const otherKey = (
      await app.call("POST", "/treasury/spending-keys", { token: other, body: { name: "a", mode: "test", policy: {} } })
    ).body.secret
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${mine.id}`, { token: otherKey })).status, 404)
    const liveList = await app.call("GET", "/v1/spend-requests", { token: liveKey })
    assert.deepStrictEqual(liveList.body.data, [])
    assert.strictEqual(
      (await app.call("POST", "/v1/test-helpers/deposits", { token: liveKey, body: { amount: 1, currency: "USD" } }))
        .status,
      404
    )
  })

  it("lists newest first with a cursor, filters by status, and rejects a forged cursor", async () => {
    const first = await app.call("GET", "/v1/spend-requests?limit=2", { token: testKey })
    assert.strictEqual(first.body.data.length, 2)
    assert.isTrue(first.body.meta.hasNextPage)
    assert.isFalse(first.body.meta.hasPreviousPage)
    const second = await app.call("GET", `/v1/spend-requests?limit=2&cursor=${first.body.meta.cursor}`, {
      token: testKey
    })
    assert.isTrue(second.body.meta.hasPreviousPage)
    assert.isTrue(second.body.data.every((sr: { createdAt: string }) => sr.createdAt <= first.body.data[1].createdAt))
    const denied = await app.call("GET", "/v1/spend-requests?status=denied", { token: testKey })
    assert.isTrue(
      denied.body.data.length > 0 && denied.body.data.every((sr: { status: string }) => sr.status === "denied")
    )
    const forged = await app.call("GET", "/v1/spend-requests?cursor=garbage", { token: testKey })
    assert.strictEqual(forged.status, 400)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests?limit=0", { token: testKey })).status, 400)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests?limit=101", { token: testKey })).status, 400)
  })
})

describe("credentials on /v1", () => {
  it("team API keys act by scope: a missing scope is 403 insufficient_scope naming it", async () => {
    const readOnly = (
      await app.call("POST", "/treasury/team-api-keys", {
        token: owner,
        body: { name: "ro", mode: "test", scopes: ["spend.read"] }
      })
    ).body
    assert.match(readOnly.secret, /^svcteam_/)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token: readOnly.secret })).status, 200)
    const denied = await create(readOnly.secret, spendBody(100))
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
    assert.include(denied.body.message, "spend.write")
    assert.strictEqual((await app.call("GET", "/v1/accounts", { token: readOnly.secret })).status, 403)
  })

  it("a revoked key is refused on the next request; sessions are refused on /v1", async () => {
    const key = (
      await app.call("POST", "/treasury/spending-keys", {
        token: owner,
        body: { name: "tmp", mode: "test", policy: {} }
      })
    ).body
    assert.strictEqual((await app.call("GET", "/v1/balance", { token: key.secret })).status, 200)
    assert.strictEqual((await app.call("DELETE", `/treasury/spending-keys/${key.id}`, { token: owner })).status, 200)
    const after = await app.call("GET", "/v1/balance", { token: key.secret })
    assert.strictEqual(after.status, 401)
    assert.strictEqual(after.headers.get("www-authenticate"), "Bearer")
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token: owner })).status, 401)
    assert.strictEqual((await app.call("DELETE", `/treasury/spending-keys/${key.id}`, { token: owner })).status, 404)
  })

  it("a key's new policy decides its next request", async () => {
    assert.strictEqual(
      (
        await app.call("PATCH", `/treasury/spending-keys/${keyId}`, {
          token: owner,
          body: { policy: { blockedCategories: ["software"] } }
        })
      ).status,
      200
    )
    const answer = await create(testKey, spendBody(100))
    assert.deepStrictEqual(
      answer.body.decision.reasons.map((r: { code: string }) => r.code),
      ["category_blocked"]
    )
    await app.call("PATCH", `/treasury/spending-keys/${keyId}`, {
      token: owner,
      body: { policy: { approvalThreshold: 5_000, perRequestLimit: 50_000 } }
    })
  })
})

describe("treasury reads", () => {
  it("shows the team's accounts and a ledger whose transactions balance", async () => {
    const accounts = await app.call("GET", "/treasury/accounts", { token: owner })
    assert.deepStrictEqual(
      accounts.body.data.map((a: { kind: string; mode: string }) => `${a.mode}:${a.kind}`).toSorted(),
      ["live:external", "live:settlement", "live:spend", "test:external", "test:settlement", "test:spend"]
    )
    const ledger = await app.call("GET", "/treasury/ledger?limit=100", { token: owner })
    assert.isAbove(ledger.body.data.length, 2)
    for (const tx of ledger.body.data) {
      for (const pending of [true, false]) {
        const sum = tx.entries
          .filter((e: { pending: boolean }) => e.pending === pending)
          .reduce((s: number, e: { amount: number }) => s + e.amount, 0)
        assert.strictEqual(sum, 0)
      }
    }
  })
})

describe("idempotency of POST /v1/spend-requests", () => {
  const raw = (key: string | undefined, body: unknown) =>
    app.call("POST", "/v1/spend-requests", {
      token: testKey,
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
    const before = (await app.call("GET", "/v1/balance", { token: testKey })).body
    const first = await raw(key, spendBody(700))
    const again = await raw(key, spendBody(700))
    assert.strictEqual(first.status, 201)
    assert.strictEqual(again.status, 201)
    assert.deepStrictEqual(again.body, first.body)
    assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
    assert.isNull(first.headers.get("idempotent-replayed"))
    const after = (await app.call("GET", "/v1/balance", { token: testKey })).body
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
    const before = (await app.call("GET", "/v1/balance", { token: testKey })).body
    const answers = await Promise.all(Array.from({ length: 8 }, () => raw(key, spendBody(50))))
    const created = answers.filter((a) => a.status === 201)
    assert.isTrue(answers.every((a) => a.status === 201 || a.status === 409))
    assert.isTrue(created.every((a) => a.body.id === created[0]?.body.id))
    assert.isTrue(answers.filter((a) => a.status === 409).every((a) => a.headers.get("retry-after") === "1"))
    const after = (await app.call("GET", "/v1/balance", { token: testKey })).body
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
    const before = (await app.call("GET", "/v1/balance", { token: testKey })).body
    const depositKey = crypto.randomUUID()
    const deposit = () =>
      app.call("POST", "/v1/test-helpers/deposits", {
        token: testKey,
        body: { amount: 1_234, currency: "USD" },
        headers: { "idempotency-key": depositKey }
      })
    const [first, retry] = [await deposit(), await deposit()]
    assert.deepStrictEqual([first.status, retry.status], [201, 201])
    assert.deepStrictEqual(retry.body, first.body)
    assert.strictEqual(retry.headers.get("idempotent-replayed"), "true")
    const after = (await app.call("GET", "/v1/balance", { token: testKey })).body
    assert.strictEqual(after.posted - before.posted, 1_234)

    const pending = (await raw(crypto.randomUUID(), spendBody(5_100))).body
    const cancelKey = crypto.randomUUID()
    const cancel = () =>
      app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
        token: testKey,
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
      app.call("GET", `/v1/spend-requests/${pending.id}`, { token: testKey, headers: { "idempotency-key": key } })
    assert.strictEqual((await read()).body.status, "pending_approval")
    await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: testKey,
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

import { assert, describe, it } from "@effect/vitest"
import { sessionToken } from "../support/InProcessApp.ts"
import { acmeApp, spendBody } from "./SpendHttpSetup.ts"

const { app, acme, create } = acmeApp()

describe("POST /v1/spend-requests", () => {
  it("approves within policy, posts to the ledger and answers the contract shape", async () => {
    const answer = await create(acme.testKey, spendBody(1_999, { metadata: { run: "nightly" } }))
    assert.strictEqual(answer.status, 201)
    const sr = answer.body
    assert.strictEqual(sr.object, "spend_request")
    assert.strictEqual(sr.status, "approved")
    assert.strictEqual(sr.mode, "test")
    assert.strictEqual(sr.amount, 1_999)
    assert.strictEqual(sr.spendingKeyId, acme.keyId)
    assert.deepStrictEqual(sr.decision, {
      outcome: "approved",
      reasons: [],
      policyVersions: { spendingKey: 1, team: null }
    })
    assert.deepStrictEqual(sr.metadata, { run: "nightly" })
    assert.isNull(sr.approval)
    assert.isString(sr.ledgerTransactionId)
    const read = await app.call("GET", `/v1/spend-requests/${sr.id}`, { token: acme.testKey })
    assert.deepStrictEqual(read.body, sr)
  })

  it("routes a request at the threshold to approval; an owner approves it once; a second decision is 409", async () => {
    const pending = (await create(acme.testKey, spendBody(5_000))).body
    assert.strictEqual(pending.status, "pending_approval")
    assert.strictEqual(pending.approval.status, "pending")
    const balance = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    assert.isAtLeast(balance.pending, 5_000)
    const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: acme.owner })
    assert.isTrue(queue.body.data.some((a: { id: string }) => a.id === pending.approval.id))
    const approved = await app.call("POST", `/treasury/approvals/${pending.approval.id}/approve`, {
      token: acme.owner,
      body: { note: "fine" }
    })
    assert.strictEqual(approved.status, 200)
    assert.strictEqual(approved.body.status, "approved")
    assert.deepStrictEqual([approved.body.subjectType, approved.body.subject.status], ["spend_request", "approved"])
    assert.strictEqual(approved.body.note, "fine")
    const again = await app.call("POST", `/treasury/approvals/${pending.approval.id}/deny`, {
      token: acme.owner,
      body: {}
    })
    assert.strictEqual(again.status, 409)
    assert.strictEqual(again.body.error, "approval_not_pending")
  })

  it("lets the agent cancel a pending request and releases the hold; canceling a final one is 409", async () => {
    const before = (await app.call("GET", "/v1/balance", { token: acme.testKey })).body
    const pending = (await create(acme.testKey, spendBody(6_000))).body
    const canceled = await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: acme.testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(canceled.status, 200)
    assert.strictEqual(canceled.body.status, "canceled")
    assert.deepStrictEqual((await app.call("GET", "/v1/balance", { token: acme.testKey })).body, before)
    const twice = await app.call("POST", `/v1/spend-requests/${pending.id}/cancel`, {
      token: acme.testKey,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(twice.status, 409)
  })

  it("denies over the per-request limit and over funds with their reason codes", async () => {
    const answer = await create(acme.testKey, spendBody(60_000))
    assert.strictEqual(answer.status, 201)
    assert.strictEqual(answer.body.status, "denied")
    assert.deepStrictEqual(
      answer.body.decision.reasons.map((r: { code: string }) => r.code),
      ["amount_over_limit", "insufficient_funds"]
    )
  })

  it("tells a client that sent 19.99 that amounts are integers in minor units", async () => {
    const answer = await create(acme.testKey, spendBody(19.99))
    assert.strictEqual(answer.status, 400)
    assert.deepStrictEqual(answer.body.details, [
      { path: "amount", message: "amounts are integers in minor units: 1999 for 19.99 USD" }
    ])
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
      const answer = await create(acme.testKey, body)
      assert.strictEqual(answer.status, 400, JSON.stringify(body).slice(0, 80))
      assert.strictEqual(answer.body.error, "validation_failed")
      assert.deepStrictEqual(
        [...new Set(answer.body.details.map((d: { path: string }) => d.path))].toSorted(),
        [...paths].toSorted(),
        JSON.stringify(answer.body.details)
      )
    }
    const currency = await create(acme.testKey, { ...spendBody(100), currency: "EUR" })
    assert.strictEqual(currency.status, 400)
    assert.strictEqual(currency.body.details[0].path, "currency")
  })

  it("keeps live and test apart and teams apart (404)", async () => {
    const mine = (await create(acme.testKey, spendBody(100))).body
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${mine.id}`, { token: acme.liveKey })).status, 404)
    const other = await sessionToken()
    await app.call("POST", "/teams", { token: other, body: { name: "Other" } })
    const otherKey = (
      await app.call("POST", "/treasury/spending-keys", { token: other, body: { name: "a", mode: "test", policy: {} } })
    ).body.secret
    assert.strictEqual((await app.call("GET", `/v1/spend-requests/${mine.id}`, { token: otherKey })).status, 404)
    const liveList = await app.call("GET", "/v1/spend-requests", { token: acme.liveKey })
    assert.deepStrictEqual(liveList.body.data, [])
    assert.strictEqual(
      (
        await app.call("POST", "/v1/test-helpers/deposits", {
          token: acme.liveKey,
          body: { amount: 1, currency: "USD" }
        })
      ).status,
      404
    )
  })

  it("lists newest first with a cursor, filters by status, and rejects a forged cursor", async () => {
    const first = await app.call("GET", "/v1/spend-requests?limit=2", { token: acme.testKey })
    assert.strictEqual(first.body.data.length, 2)
    assert.isTrue(first.body.meta.hasNextPage)
    assert.isFalse(first.body.meta.hasPreviousPage)
    const second = await app.call("GET", `/v1/spend-requests?limit=2&cursor=${first.body.meta.cursor}`, {
      token: acme.testKey
    })
    assert.isTrue(second.body.meta.hasPreviousPage)
    assert.isTrue(second.body.data.every((sr: { createdAt: string }) => sr.createdAt <= first.body.data[1].createdAt))
    const denied = await app.call("GET", "/v1/spend-requests?status=denied", { token: acme.testKey })
    assert.isTrue(
      denied.body.data.length > 0 && denied.body.data.every((sr: { status: string }) => sr.status === "denied")
    )
    const forged = await app.call("GET", "/v1/spend-requests?cursor=garbage", { token: acme.testKey })
    assert.strictEqual(forged.status, 400)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests?limit=0", { token: acme.testKey })).status, 400)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests?limit=101", { token: acme.testKey })).status, 400)
  })
})

describe("treasury reads", () => {
  it("shows the team's accounts and a ledger whose transactions balance", async () => {
    const accounts = await app.call("GET", "/treasury/accounts", { token: acme.owner })
    assert.deepStrictEqual(
      accounts.body.data.map((a: { kind: string; mode: string }) => `${a.mode}:${a.kind}`).toSorted(),
      ["live:external", "live:settlement", "live:spend", "test:external", "test:settlement", "test:spend"]
    )
    const ledger = await app.call("GET", "/treasury/ledger?limit=100", { token: acme.owner })
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

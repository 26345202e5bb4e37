import { assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { acmeApp, spendBody } from "./SpendHttpSetup.ts"

const { app, acme, create } = acmeApp()
const server = loopbackServer(app.handler)

const evaluate = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  app.call("POST", "/v1/spend-requests/evaluate", { token: key, body, headers })

const setPolicy = (policy: unknown) =>
  app.call("PATCH", `/treasury/spending-keys/${acme.keyId}`, { token: acme.owner, body: { policy } })

const pathsOf = (answer: { body: { details?: ReadonlyArray<{ path: string }> } }) =>
  [...new Set((answer.body.details ?? []).map((d) => d.path))].toSorted()

describe("POST /v1/spend-requests/evaluate", () => {
  it("answers what create then decides, with the figures, rate limited like every /v1 route", async () => {
    const policy = { approvalThreshold: 5_000, perRequestLimit: 50_000, dailyBudget: 3_000, maxRequestsPerHour: 3 }
    assert.strictEqual((await setPolicy(policy)).status, 200)
    const pairs: Array<[number, string]> = [
      [1_000, "approved"],
      [1_500, "approved"],
      [600, "denied"],
      [400, "approved"],
      [1, "denied"]
    ]
    for (const [amount, outcome] of pairs) {
      const dry = await evaluate(acme.testKey, spendBody(amount))
      assert.strictEqual(dry.status, 200)
      assert.isDefined(dry.headers.get("ratelimit-limit"))
      assert.strictEqual(dry.body.outcome, outcome, `${amount}`)
      const created = await create(acme.testKey, spendBody(amount))
      assert.deepStrictEqual(created.body.decision, dry.body, `${amount}`)
    }
    const last = await evaluate(acme.testKey, spendBody(101))
    const codes = last.body.reasons.map((r: { code: string }) => r.code)
    assert.deepStrictEqual(codes, ["velocity_exceeded", "daily_budget_exceeded"])
    const [velocity, daily] = last.body.reasons
    assert.deepInclude(velocity, { limit: 3, used: 3, requested: 1, remaining: 0, interval: "hour" })
    assert.isString(velocity.nextAllowedAt)
    assert.deepInclude(daily, { limit: 3_000, used: 2_900, requested: 101, remaining: 100, interval: "day" })
    assert.isString(daily.resetsAt)
    assert.strictEqual((await setPolicy({ approvalThreshold: 5_000, perRequestLimit: 50_000 })).status, 200)
  })

  it("writes nothing, not even an idempotency record for a key it is sent with", async () => {
    const before = await Promise.all([
      app.call("GET", "/v1/balance", { token: acme.testKey }),
      app.call("GET", "/v1/spend-requests?limit=100", { token: acme.testKey })
    ])
    const key = crypto.randomUUID()
    const dry = await evaluate(acme.testKey, spendBody(6_000), { "idempotency-key": key })
    assert.strictEqual(dry.status, 200)
    assert.strictEqual(dry.body.outcome, "pending_approval")
    assert.deepInclude(dry.body.reasons[0], {
      code: "approval_threshold",
      limit: 5_000,
      requested: 6_000,
      approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false }
    })
    assert.isNull(dry.headers.get("idempotent-replayed"))
    const after = await Promise.all([
      app.call("GET", "/v1/balance", { token: acme.testKey }),
      app.call("GET", "/v1/spend-requests?limit=100", { token: acme.testKey })
    ])
    assert.deepStrictEqual(
      after.map((a) => a.body),
      before.map((b) => b.body)
    )
    // The key was not taken: a create with another body under it is decided, not refused as another body's key.
    const created = await create(acme.testKey, spendBody(100), key)
    assert.strictEqual(created.status, 201)
  })

  it("refuses what create refuses, naming the field; without a credential it is 401", async () => {
    for (const [body, paths] of [
      [spendBody(0), ["amount"]],
      [{ ...spendBody(100), currency: "usd" }, ["currency"]],
      [{ ...spendBody(100), merchant: { name: "X", category: "Software!" } }, ["merchant.category"]],
      [{ ...spendBody(100), surprise: true }, ["surprise"]]
    ] as const) {
      const answer = await evaluate(acme.testKey, body)
      assert.strictEqual(answer.status, 400)
      assert.deepStrictEqual(pathsOf(answer), [...paths])
    }
    const currency = await evaluate(acme.testKey, { ...spendBody(100), currency: "EUR" })
    assert.strictEqual(currency.status, 400)
    assert.deepStrictEqual(pathsOf(currency), ["currency"])
    assert.strictEqual((await app.call("POST", "/v1/spend-requests/evaluate", { body: spendBody(1) })).status, 401)
  })

  it("the SDK's spendEvaluation.evaluate answers the dry run", async () => {
    const client = createClient({ baseUrl: server.baseUrl(), token: acme.testKey })
    const decision = await client.spendEvaluation.evaluate({
      payload: { amount: 100, currency: "USD", merchant: { name: "OpenAI", category: "software" }, purpose: "tokens" }
    })
    const { policyVersions, ...answer } = decision
    assert.deepStrictEqual(answer, { outcome: "approved", reasons: [] })
    assert.strictEqual(policyVersions?.team, null, "the dry run names the versions it would decide under")
    assert.isNumber(policyVersions?.spendingKey)
    const refused = await failureOf(
      client.spendEvaluation.evaluate({
        payload: { amount: 1, currency: "EUR", merchant: { name: "X" }, purpose: "p" }
      })
    )
    assert.strictEqual(refused.status, 400)
    assert.strictEqual(refused.details?.[0]?.path, "currency")
  })
})

describe("the new policy fields through PATCH /treasury/spending-keys/:id", () => {
  it("accepts budget intervals, category budgets and velocity limits, and reads them back", async () => {
    const policy = {
      weeklyBudget: 10_000,
      yearlyBudget: 100_000,
      lifetimeBudget: 1_000_000,
      categoryBudgets: [{ category: "travel", interval: "month", amount: 50_000 }],
      maxRequestsPerHour: 10,
      maxRequestsPerDay: 100
    }
    const answer = await setPolicy(policy)
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body.policy, policy)
    assert.strictEqual((await setPolicy({ approvalThreshold: 5_000, perRequestLimit: 50_000 })).status, 200)
  })

  it("answers 400 naming the field of bad amounts, counts, intervals and a second budget for one pair", async () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ weeklyBudget: -1 }, "policy.weeklyBudget"],
      [{ yearlyBudget: 1.5 }, "policy.yearlyBudget"],
      [{ maxRequestsPerHour: -1 }, "policy.maxRequestsPerHour"],
      [{ maxRequestsPerDay: 0.5 }, "policy.maxRequestsPerDay"],
      [
        { categoryBudgets: [{ category: "travel", interval: "fortnight", amount: 1 }] },
        "policy.categoryBudgets.0.interval"
      ],
      [{ categoryBudgets: [{ category: "travel", interval: "month", amount: -1 }] }, "policy.categoryBudgets.0.amount"],
      [
        {
          categoryBudgets: [
            { category: "travel", interval: "month", amount: 1 },
            { category: "travel", interval: "month", amount: 2 }
          ]
        },
        "policy.categoryBudgets.1"
      ]
    ]
    for (const [policy, path] of cases) {
      const answer = await setPolicy(policy)
      assert.strictEqual(answer.status, 400, JSON.stringify(policy))
      assert.deepStrictEqual(pathsOf(answer), [path], JSON.stringify(answer.body))
    }
  })
})

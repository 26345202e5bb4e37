import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { TeamId } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { intentBody } from "../checkout/CheckoutHttpSetup.ts"
import { createSpend, spendBody } from "../spend/SpendHttpSetup.ts"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { memberToken } from "../support/TeamMembers.ts"

const ids = (answer: { readonly body: { readonly data: ReadonlyArray<{ readonly id: string }> } }) =>
  answer.body.data.map((item) => item.id)

const activity = (app: Client, token: string, query = "") =>
  app.call("GET", `/treasury/activity${query === "" ? "" : `?${query}`}`, { token })

const decide = (app: Client, token: string, approvalId: string, outcome: "approve" | "deny", note: string) =>
  app.call("POST", `/treasury/approvals/${approvalId}/${outcome}`, { token, body: { note } })

/** Every page of a list from its first, `limit` items at a time. */
const allPages = async (app: Client, token: string, limit: number) => {
  const pages: Array<{ readonly ids: ReadonlyArray<string>; readonly hasNextPage: boolean }> = []
  let cursor: string | null = null
  do {
    const query: string = `limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    const page = await activity(app, token, query)
    assert.strictEqual(page.status, 200, JSON.stringify(page.body))
    pages.push({ ids: ids(page), hasNextPage: page.body.meta.hasNextPage })
    cursor = page.body.meta.cursor
  } while (cursor !== null)
  return pages
}

/** The activity and spend-stats views of the treasury over HTTP, on the given ports. */
export const activityHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`treasury activity (${name})`, (it) => {
    const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports>) =>
      Effect.runPromise(Effect.provide(effect, context))

    it.effect(
      "one newest-first list of spend requests, transfers and checkout intents: each filter narrows, pages cover it once, another team's items never show",
      () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 5_000 } })
          const other = await setUpKeyedTeam(app, { funds: 10_000 })
          const second = await app.call("POST", "/treasury/spending-keys", {
            token: acme.owner,
            body: { name: "second", mode: "test", policy: {} }
          })
          assert.strictEqual(second.status, 201)
          const address = (await app.call("GET", "/v1/transfers/receive-address", { token: other.key })).body.address

          const s1 = await createSpend(app, acme.key, spendBody(1_000))
          const s2 = await createSpend(app, acme.key, spendBody(6_000))
          const t1 = await app.call("POST", "/v1/transfers", {
            token: acme.key,
            body: { to: { address }, amount: 500, currency: "USD", memo: "rent share" },
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          const i1 = await app.call("POST", "/v1/checkout/intents", {
            token: acme.key,
            body: intentBody(),
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          const s3 = await createSpend(app, second.body.secret, spendBody(700))
          const foreign = await createSpend(app, other.key, spendBody(300))
          for (const created of [s1, s2, t1, i1, s3, foreign]) {
            assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          }
          assert.strictEqual(s2.body.status, "pending_approval")
          const keyId = s1.body.spendingKeyId

          const all = await activity(app, acme.owner)
          assert.strictEqual(all.status, 200, JSON.stringify(all.body))
          assert.deepStrictEqual(ids(all), [s3.body.id, i1.body.id, t1.body.id, s2.body.id, s1.body.id])
          assert.deepStrictEqual(all.body.data[2], {
            object: "activity",
            kind: "transfer",
            id: t1.body.id,
            mode: "test",
            keyId,
            keyName: "agent",
            amount: 500,
            currency: "USD",
            status: t1.body.status,
            counterparty: address,
            purpose: "rent share",
            createdAt: t1.body.createdAt,
            approvalId: null
          })
          assert.deepStrictEqual(all.body.data[3], {
            object: "activity",
            kind: "spend_request",
            id: s2.body.id,
            mode: "test",
            keyId,
            keyName: "agent",
            amount: 6_000,
            currency: "USD",
            status: "pending_approval",
            counterparty: "OpenAI",
            purpose: spendBody(0).purpose,
            createdAt: s2.body.createdAt,
            approvalId: s2.body.approval.id
          })
          assert.strictEqual(all.body.data[0].keyName, "second")
          assert.strictEqual(all.body.data[1].counterparty, "Acme Books")

          assert.deepStrictEqual(ids(await activity(app, acme.owner, "kind=transfer")), [t1.body.id])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "kind=checkout_intent")), [i1.body.id])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "kind=spend_request")), [
            s3.body.id,
            s2.body.id,
            s1.body.id
          ])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "status=pending_approval")), [s2.body.id])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "status=approved&kind=spend_request")), [
            s3.body.id,
            s1.body.id
          ])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, `keyId=${second.body.id}`)), [s3.body.id])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, `keyId=${keyId}&kind=spend_request`)), [
            s2.body.id,
            s1.body.id
          ])
          const window = `from=${encodeURIComponent(t1.body.createdAt)}&to=${encodeURIComponent(s3.body.createdAt)}`
          const windowed = ids(await activity(app, acme.owner, window))
          assert.include(windowed, t1.body.id, "from is inclusive")
          assert.notInclude(windowed, s3.body.id, "to is exclusive")
          assert.notInclude(windowed, s2.body.id)
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "mode=live")), [])
          assert.deepStrictEqual(ids(await activity(app, acme.owner, "mode=test")), ids(all))

          const pages = await allPages(app, acme.owner, 2)
          assert.deepStrictEqual(
            pages.map((p) => p.ids.length),
            [2, 2, 1]
          )
          assert.deepStrictEqual(
            pages.flatMap((p) => p.ids),
            ids(all)
          )
          assert.deepStrictEqual(
            pages.map((p) => p.hasNextPage),
            [true, true, false]
          )

          const theirs = await activity(app, other.owner)
          assert.deepStrictEqual(ids(theirs), [foreign.body.id])
          const notOurs = await app.call("GET", `/treasury/activity/spend_request/${s1.body.id}`, {
            token: other.owner
          })
          assert.strictEqual(notOurs.status, 404, JSON.stringify(notOurs.body))
          const notOursTransfer = await app.call("GET", `/treasury/activity/transfer/${t1.body.id}`, {
            token: other.owner
          })
          assert.strictEqual(notOursTransfer.status, 404, "the recipient does not see the sender's activity")
          const unknown = await app.call("GET", `/treasury/activity/checkout_intent/${crypto.randomUUID()}`, {
            token: acme.owner
          })
          assert.strictEqual(unknown.status, 404)
          const wrongKind = await app.call("GET", `/treasury/activity/transfer/${s1.body.id}`, { token: acme.owner })
          assert.strictEqual(wrongKind.status, 404)

          const ops = await app.call("POST", "/treasury/team-api-keys", {
            token: acme.owner,
            body: { name: "ops", mode: "test", scopes: ["spend.read", "spend.write"] }
          })
          assert.strictEqual(ops.status, 201, JSON.stringify(ops.body))
          const byTeamKey = await createSpend(app, ops.body.secret, spendBody(50))
          assert.strictEqual(byTeamKey.status, 201, JSON.stringify(byTeamKey.body))
          const [newest] = (await activity(app, acme.owner, "limit=1")).body.data
          assert.deepStrictEqual(
            [newest.id, newest.keyId, newest.keyName],
            [byTeamKey.body.id, ops.body.id, "ops"],
            "a team API key's ask shows under its name"
          )
          assert.deepStrictEqual(ids(await activity(app, acme.owner, `keyId=${ops.body.id}`)), [byTeamKey.body.id])
        })
    )

    it.effect("bad filters are a 400 naming the field", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const bad = (query: string) => activity(app, acme.owner, query)
        assertInvalid(await bad("from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z"), "query.from")
        assertInvalid(await bad("from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z"), "query.from")
        assertInvalid(await bad("from=yesterday"), "query.from")
        assertInvalid(await bad("to=2026-13-45T99:00:00Z"), "query.to")
        assertInvalid(await bad("keyId=not-a-uuid"), "query.keyId")
        assertInvalid(await bad("kind=refund"), "query.kind")
        assertInvalid(await bad("status=bogus"), "query.status")
        assertInvalid(await bad("kind=spend_request&status=pending_acceptance"), "query.status")
        assertInvalid(await bad("mode=prod"), "query.mode")
        assertInvalid(await bad("limit=0"), "query.limit")
        const fine = await bad("kind=transfer&status=pending_acceptance&from=2026-11-01T00:00:00%2B01:00")
        assert.strictEqual(fine.status, 200, JSON.stringify(fine.body))
        const detail = await app.call("GET", `/treasury/activity/refund/${crypto.randomUUID()}`, { token: acme.owner })
        assertInvalid(detail, "params.kind")
        assertInvalid(await app.call("GET", "/treasury/activity/transfer/nope", { token: acme.owner }), "params.id")
        const stats = (query: string) => app.call("GET", `/treasury/spend-stats?${query}`, { token: acme.owner })
        assertInvalid(await stats("days=0"), "query.days")
        assertInvalid(await stats("days=91"), "query.days")
        assertInvalid(await stats("days=1.5"), "query.days")
        assertInvalid(await stats("mode=prod"), "query.mode")
        const unauthenticated = await app.call("GET", "/treasury/activity")
        assert.strictEqual(unauthenticated.status, 401)
      })
    )

    it.effect(
      "an approved request's detail runs requested → approval_required → approved with the approver and note, and shows its hold and posting; a denied one shows the note and posts nothing",
      () =>
        withAppOnPorts(async (app, context) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 5_000 } })
          const admin = await run(context, memberToken(acme.id as TeamId, "admin"))
          const email = `admin-${admin.id}@example.com`
          const detailOf = async (kind: string, id: string) => {
            const answer = await app.call("GET", `/treasury/activity/${kind}/${id}`, { token: acme.owner })
            assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
            return answer.body
          }
          const actions = (body: { trail: ReadonlyArray<{ action: string }> }) => body.trail.map((s) => s.action)

          const approved = await createSpend(app, acme.key, spendBody(6_000))
          const yes = await decide(app, admin.token, approved.body.approval.id, "approve", "fine for this quarter")
          assert.strictEqual(yes.status, 200, JSON.stringify(yes.body))
          const ok = await detailOf("spend_request", approved.body.id)
          assert.strictEqual(ok.object, "activity_detail")
          assert.strictEqual(ok.item.status, "approved")
          assert.strictEqual(ok.item.approvalId, approved.body.approval.id)
          assert.deepStrictEqual(actions(ok), ["requested", "policy_evaluated", "approval_required", "approved"])
          assert.strictEqual(ok.trail[0].actor, "agent")
          assert.match(ok.trail[1].detail, /approval threshold 5000/u)
          assert.deepStrictEqual(
            ok.trail[1].reasons.map((r: { code: string; limit: number }) => [r.code, r.limit]),
            [["approval_threshold", 5000]],
            "the policy's step carries its reasons' numbers, for a client to format as money"
          )
          assert.strictEqual(ok.trail[0].reasons, undefined, "a step without reasons carries none")
          assert.deepStrictEqual(ok.trail[3], {
            at: ok.trail[3].at,
            action: "approved",
            actor: email,
            detail: "fine for this quarter"
          })
          const times = ok.trail.map((s: { at: string }) => s.at)
          assert.deepStrictEqual(times, times.toSorted(), "oldest first")
          assert.deepStrictEqual(
            ok.ledgerTransactions.map((tx: { kind: string; code: string; reference: string }) => [
              tx.kind,
              tx.code,
              tx.reference
            ]),
            [
              ["pending", "spend_request", approved.body.id],
              ["post_pending", "spend_request", approved.body.id]
            ]
          )
          assert.strictEqual(yes.body.subjectType, "spend_request")
          assert.strictEqual(ok.ledgerTransactions[1].id, yes.body.subject.ledgerTransactionId)

          const denied = await createSpend(app, acme.key, spendBody(7_000))
          const no = await decide(app, admin.token, denied.body.approval.id, "deny", "not in the budget")
          assert.strictEqual(no.status, 200, JSON.stringify(no.body))
          const refused = await detailOf("spend_request", denied.body.id)
          assert.strictEqual(refused.item.status, "denied")
          assert.deepStrictEqual(actions(refused), ["requested", "policy_evaluated", "approval_required", "denied"])
          assert.strictEqual(refused.trail[3].actor, email)
          assert.strictEqual(refused.trail[3].detail, "not in the budget")
          assert.deepStrictEqual(
            refused.ledgerTransactions.map((tx: { kind: string }) => tx.kind),
            ["pending", "void_pending"],
            "the hold is released; nothing is posted"
          )

          const small = await createSpend(app, acme.key, spendBody(1_000))
          const atOnce = await detailOf("spend_request", small.body.id)
          assert.deepStrictEqual(actions(atOnce), ["requested", "policy_evaluated", "approved"])
          assert.strictEqual(atOnce.trail[2].actor, "system")
          assert.deepStrictEqual(
            atOnce.ledgerTransactions.map((tx: { kind: string; id: string }) => [tx.kind, tx.id]),
            [["posted", small.body.ledgerTransactionId]]
          )

          const overLimit = await createSpend(app, acme.key, spendBody(500_000))
          assert.strictEqual(overLimit.body.status, "denied", JSON.stringify(overLimit.body))
          const byPolicy = await detailOf("spend_request", overLimit.body.id)
          assert.deepStrictEqual(actions(byPolicy), ["requested", "policy_evaluated", "denied"])
          assert.match(byPolicy.trail[2].detail, /insufficient|exceeds|available/u)
          assert.deepStrictEqual(byPolicy.ledgerTransactions, [])

          const intent = await app.call("POST", "/v1/checkout/intents", {
            token: acme.key,
            body: intentBody(),
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          const canceled = await app.call("POST", `/v1/checkout/intents/${intent.body.id}/cancel`, {
            token: acme.key,
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          assert.strictEqual(canceled.status, 200, JSON.stringify(canceled.body))
          const intentDetail = await detailOf("checkout_intent", intent.body.id)
          assert.strictEqual(intentDetail.item.kind, "checkout_intent")
          assert.deepStrictEqual(actions(intentDetail), ["requested", "policy_evaluated", "approved", "canceled"])
          assert.deepStrictEqual(intentDetail.ledgerTransactions, [])
        })
    )

    it.effect(
      "spend stats: one entry per day of the window with zeros, the spends made today, and budget usage as the policy counts it",
      () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpKeyedTeam(app, {
            funds: 100_000,
            policy: { approvalThreshold: 5_000, dailyBudget: 50_000, monthlyBudget: 90_000 }
          })
          await app.call("PUT", "/treasury/spend-policy", { token: acme.owner, body: { monthlyBudget: 80_000 } })
          const second = await app.call("POST", "/treasury/spending-keys", {
            token: acme.owner,
            body: { name: "second", mode: "test", policy: {} }
          })
          const revoked = await app.call("POST", "/treasury/spending-keys", {
            token: acme.owner,
            body: { name: "gone", mode: "test", policy: {} }
          })
          const revoke = await app.call("DELETE", `/treasury/spending-keys/${revoked.body.id}`, { token: acme.owner })
          assert.isTrue(revoke.status < 300, JSON.stringify(revoke.body))
          const a = await createSpend(app, acme.key, spendBody(1_000))
          await createSpend(app, acme.key, spendBody(2_000))
          await createSpend(app, second.body.secret, spendBody(500))
          const pending = await createSpend(app, acme.key, spendBody(6_000))
          assert.strictEqual(pending.body.status, "pending_approval")
          const keyId = a.body.spendingKeyId

          const answer = await app.call("GET", "/treasury/spend-stats?mode=test&days=7", { token: acme.owner })
          assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
          const stats = answer.body
          const today = new Date().toISOString().slice(0, 10)
          const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)
          assert.strictEqual(stats.object, "spend_stats")
          assert.strictEqual(stats.to, today)
          assert.strictEqual(stats.from, weekAgo)
          assert.deepStrictEqual(stats.keys.map((k: { keyName: string }) => k.keyName).toSorted(), ["agent", "second"])
          const agent = stats.keys.find((k: { keyId: string }) => k.keyId === keyId)
          assert.strictEqual(agent.daily.length, 7)
          assert.strictEqual(agent.daily[0].date, weekAgo)
          assert.deepStrictEqual(agent.daily.at(-1), { date: today, amount: 3_000 })
          assert.deepStrictEqual(
            agent.daily.slice(0, 6).map((d: { amount: number }) => d.amount),
            [0, 0, 0, 0, 0, 0]
          )
          assert.strictEqual(
            agent.daily.reduce((sum: number, d: { amount: number }) => sum + d.amount, 0),
            3_000,
            "the pending request is not spent yet"
          )
          assert.strictEqual(agent.usedToday, 9_000, "budgets count approved and pending spend")
          assert.strictEqual(agent.usedThisMonth, 9_000)
          assert.strictEqual(agent.dailyLimit, 50_000)
          assert.strictEqual(agent.monthlyLimit, 90_000, "the key's own budget wins over the team's")
          assert.strictEqual(agent.currency, "USD")
          const other = stats.keys.find((k: { keyName: string }) => k.keyName === "second")
          assert.strictEqual(other.daily.at(-1).amount, 500)
          assert.isNull(other.dailyLimit)

          const live = await app.call("GET", "/treasury/spend-stats", { token: acme.owner })
          assert.strictEqual(live.status, 200)
          assert.deepStrictEqual(live.body.keys, [], "live by default: the team has no live key")
          assert.strictEqual(live.body.from, new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10))
        })
    )
  })

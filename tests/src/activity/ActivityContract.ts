import { assert, layer } from "@effect/vitest"
import { domainServices, type Ports } from "@svc/api"
import {
  Activity,
  ActivityRepo,
  type AgentPrincipal,
  CardAuthorizations,
  CursorKey,
  FileKeys,
  FileLinks,
  isoOfMillis,
  pageRequest,
  SpendRequests
} from "@svc/domain"
import { Clock, ConfigProvider, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { authorization, authorize, intentWithCard } from "../checkout/CheckoutDomainSetup.ts"
import { fundedAgent, spend } from "../spend/SpendSetup.ts"
import { testConfig } from "../support/InProcessApp.ts"

const DAY = 86_400_000

/** Moves the test clock (shared by the file's tests) to the start of the next UTC day; answers that moment. */
const nextUtcDay = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const start = (Math.floor(now / DAY) + 1) * DAY
  yield* TestClock.adjust(start - now)
  return start
})

const dateOf = (millis: number) => isoOfMillis(millis).slice(0, 10)

/** The application's domain services over `ports`, background jobs off. */
const activityDomainOver = <E>(ports: Layer.Layer<Ports, E>) =>
  domainServices(testConfig, ports).pipe(
    Layer.provide([
      FileKeys.layer("test-file-key-secret"),
      CursorKey.layer("test-cursor-signing-key"),
      FileLinks.layer("test-presigned-url-key")
    ]),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ BACKGROUND_JOBS: "false" })))
  )

/** What a dry run of `amount` says the key's daily and monthly budgets have used. */
const budgetsUsed = (agent: AgentPrincipal, amount: number) =>
  Effect.map(
    SpendRequests.use((s) =>
      s.evaluate(agent, { amount, currency: "USD", merchant: { name: "OpenAI", category: "software" }, purpose: "x" })
    ),
    (decision) =>
      Object.fromEntries(
        decision.reasons.flatMap((r) =>
          r.code === "daily_budget_exceeded" || r.code === "monthly_budget_exceeded" ? [[r.code, r.used]] : []
        )
      )
  )

/** The activity read model on every adapter set: daily spend by UTC day, budget usage, windows, ledger transactions. */
export const activityContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(activityDomainOver(ports), { timeout: "120 seconds" })(`Activity (${name})`, (it) => {
    it.effect(
      "spend counts on the UTC day it was made, zero days stay, pending spend counts only in the budgets, which agree with the policy's",
      () =>
        Effect.gen(function* () {
          const { team, agent } = yield* fundedAgent({
            funds: 100_000,
            policy: { approvalThreshold: 5_000, dailyBudget: 20_000, monthlyBudget: 30_000 }
          })
          const day0 = yield* nextUtcDay
          const other = yield* fundedAgent({ funds: 10_000 })
          yield* spend(other.agent, 4_000)
          const first = yield* spend(agent, 1_000)
          yield* TestClock.adjust(2 * DAY + 3_600_000)
          yield* spend(agent, 2_000)
          const pending = yield* spend(agent, 6_000)
          assert.strictEqual(pending.status, "pending_approval")
          const { intent, cardToken } = yield* intentWithCard(agent, { amount: 4_000 })
          const request = authorization(cardToken, { amount: 4_000 })
          yield* authorize(request)
          yield* CardAuthorizations.use((a) =>
            a.clear({ transactionId: "txn_1", token: request.token, amount: 3_000, currency: "USD" })
          )

          const activity = yield* Activity
          const stats = yield* activity.spendStats(team.id, { days: 3, mode: "test" })
          assert.strictEqual(stats.from, dateOf(day0))
          assert.strictEqual(stats.to, dateOf(day0 + 2 * DAY))
          assert.strictEqual(stats.keys.length, 1)
          const [key] = stats.keys
          assert.deepStrictEqual(key?.daily, [
            { date: dateOf(day0), amount: 1_000 },
            { date: dateOf(day0 + DAY), amount: 0 },
            { date: dateOf(day0 + 2 * DAY), amount: 5_000 }
          ])
          assert.deepStrictEqual(yield* budgetsUsed(agent, 25_000), {
            daily_budget_exceeded: key?.usedToday,
            monthly_budget_exceeded: key?.usedThisMonth
          })
          assert.strictEqual(key?.usedThisMonth, (key?.usedToday ?? 0) + first.amount)
          assert.isAbove(key?.usedToday ?? 0, 5_000, "the pending request counts in the budgets")
          assert.strictEqual(key?.dailyLimit, 20_000)
          assert.strictEqual(key?.monthlyLimit, 30_000)

          const dayTwo = yield* ActivityRepo.use((r) =>
            r.dailySpend(team.id, "test", isoOfMillis(day0 + DAY), isoOfMillis(day0 + 3 * DAY))
          )
          assert.deepStrictEqual(dayTwo, [{ spendingKeyId: agent.keyId, date: dateOf(day0 + 2 * DAY), amount: 5_000 }])
          assert.deepStrictEqual(
            yield* ActivityRepo.use((r) =>
              r.dailySpend(team.id, "live", isoOfMillis(day0), isoOfMillis(day0 + 3 * DAY))
            ),
            []
          )

          const detail = yield* activity.detail(team.id, "checkout_intent", intent.id)
          assert.strictEqual(detail.item.status, "completed")
          assert.deepStrictEqual(
            detail.ledgerTransactions.map((tx) => [tx.kind, tx.code, tx.reference]),
            [
              ["pending", "card_authorization", request.token],
              ["post_pending", "card_authorization", request.token]
            ]
          )
          assert.deepStrictEqual(detail.trail.at(-1), {
            at: detail.trail.at(-1)?.at ?? "",
            action: "captured",
            actor: "system",
            detail: "captured 3000",
            amount: 3000
          })
          const firstDetail = yield* activity.detail(team.id, "spend_request", first.id)
          assert.deepStrictEqual(
            firstDetail.ledgerTransactions.map((tx) => tx.id),
            [first.ledgerTransactionId]
          )
          const refused = yield* Effect.flip(activity.detail(other.team.id, "checkout_intent", intent.id))
          assert.strictEqual(refused._tag, "ActivityNotFound")
        })
    )

    it.effect("a window keeps items created in [from, to), and filters combine with pages", () =>
      Effect.gen(function* () {
        const day0 = yield* nextUtcDay
        const { team, agent } = yield* fundedAgent({ funds: 100_000 })
        const early = yield* spend(agent, 100)
        yield* TestClock.adjust(DAY)
        const m1 = yield* spend(agent, 200)
        const m2 = yield* spend(agent, 300)
        const m3 = yield* spend(agent, 400)
        const middle = [m1, m2, m3]
        yield* TestClock.adjust(DAY)
        const late = yield* spend(agent, 500)
        const activity = yield* Activity
        const list = (query: Parameters<typeof activity.list>[1], limit = 10, cursor?: string) =>
          Effect.flatMap(pageRequest(cursor, limit), (page) => activity.list(team.id, query, page))
        const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
        assert.deepStrictEqual(ids(yield* list({ from: isoOfMillis(day0 + DAY), to: isoOfMillis(day0 + 2 * DAY) })), [
          m3.id,
          m2.id,
          m1.id
        ])
        assert.deepStrictEqual(ids(yield* list({ to: isoOfMillis(day0 + DAY) })), [early.id])
        assert.deepStrictEqual(ids(yield* list({ from: late.createdAt })), [late.id])
        assert.deepStrictEqual(
          ids(yield* list({ from: `${dateOf(day0 + DAY)}T01:00:00+01:00`, kind: "spend_request" })),
          [late.id, ...ids(middle).toReversed()]
        )
        const firstPage = yield* list({ from: isoOfMillis(day0 + DAY) }, 2)
        assert.deepStrictEqual(ids(firstPage), [late.id, m3.id, m2.id], "the page and one more")
        const invalid = yield* Effect.flip(list({ from: isoOfMillis(day0 + DAY), to: isoOfMillis(day0 + DAY) }))
        assert.strictEqual(invalid._tag, "ActivityFilterInvalid")
        assert.strictEqual(invalid._tag === "ActivityFilterInvalid" ? invalid.field : "", "from")
        const garbled = yield* Effect.flip(list({ to: "the day after tomorrow" }))
        assert.strictEqual(garbled._tag === "ActivityFilterInvalid" ? garbled.field : "", "to")
        const status = yield* Effect.flip(list({ kind: "transfer", status: "captured" }))
        assert.strictEqual(status._tag === "ActivityFilterInvalid" ? status.field : "", "status")
      })
    )
  })

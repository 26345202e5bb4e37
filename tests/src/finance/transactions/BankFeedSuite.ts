import { assert } from "@effect/vitest"
import { BankConnectionsRepo, type TeamId, TransactionsRepo } from "@svc/domain"
import { Effect, type Layer } from "effect"
import { appEnv, deposit, inboundOver, liveBalance, newTeam, pathOf, settle } from "../../inbound/InboundSetup.ts"
import { call, post, type RunningApp, sign, type WebhookPorts, withApp } from "../../support/WebhooksHarness.ts"

/** A connection of the team on `provider`, known to the aggregator as `externalId`. */
const connect = (teamId: TeamId, provider: string, externalId: string) =>
  Effect.gen(function* () {
    const at = new Date().toISOString()
    yield* (yield* BankConnectionsRepo).insert({
      id: crypto.randomUUID(),
      teamId,
      provider,
      externalId,
      status: "connected",
      createdAt: at,
      updatedAt: at
    })
  })

interface FeedItem {
  readonly id: string
  readonly amount: number
  readonly pending?: boolean
  readonly name?: string
}

/** Posts a signed `transactions.updated` event of one account to a banking or bank-aggregator endpoint. */
const feed = (app: RunningApp, endpoint: string, eventId: string, connection: string, items: ReadonlyArray<FeedItem>) =>
  Effect.gen(function* () {
    const body = JSON.stringify({
      id: eventId,
      type: "transactions.updated",
      data: {
        connection_id: connection,
        account: { id: "acc_1", name: "Business checking", currency: "USD" },
        transactions: items.map((t) => ({
          id: t.id,
          date: "2026-03-02",
          name: t.name ?? `Card payment ${t.id}`,
          amount: t.amount,
          currency: "USD",
          pending: t.pending ?? false,
          counterparty_name: "Shop"
        }))
      }
    })
    const headers = yield* Effect.promise(() => sign(endpoint, body, { id: eventId }))
    return yield* post(app, pathOf(endpoint), body, headers)
  })

const listed = (app: RunningApp, token: string) =>
  Effect.map(call(app, "GET", "/transactions?limit=100", token), (answer) => {
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    return answer.body.data as ReadonlyArray<{
      id: string
      name: string
      amount: number
      status: string
      manual: boolean
      account: { name: string; connection: { id: string; name: string } | null }
      category: { slug: string } | null
    }>
  })

/** Bank feeds delivered by webhook become the team's transactions, once per provider transaction id. */
export const bankFeedSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  inboundOver(ports)(`bank feeds into transactions (${name})`, (it) => {
    it.effect("a delivered bank transaction appears once however often and concurrently it is redelivered", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { teamId, token } = yield* newTeam(app)
          yield* connect(teamId, "bank-aggregator-a", "item_1")
          const items = [
            { id: "tx_1", amount: -1250, pending: true },
            { id: "tx_2", amount: 99999 }
          ]
          const [answers] = yield* Effect.all(
            [
              Effect.forEach(
                Array.from({ length: 8 }),
                () => feed(app, "bank-aggregator-a", "evt_1", "item_1", items),
                {
                  concurrency: "unbounded"
                }
              ),
              settle(2).pipe(Effect.repeat({ times: 7 }))
            ],
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(
            answers.map((a) => a.status),
            Array(8).fill(200)
          )
          yield* settle()
          const first = yield* listed(app, token)
          assert.deepStrictEqual(first.map((t) => [t.amount, t.status, t.manual]).toSorted(), [
            [-12.5, "pending", false],
            [999.99, "posted", false]
          ])
          assert.strictEqual(first[0]!.account.name, "Business checking")
          assert.strictEqual(first[0]!.account.connection?.name, "bank-aggregator-a")

          const pendingOne = first.find((t) => t.status === "pending")!
          const categorised = yield* call(app, "PATCH", `/transactions/${pendingOne.id}`, token, {
            categorySlug: "travel"
          })
          assert.strictEqual(categorised.status, 200, JSON.stringify(categorised.body))

          // other events report the same transactions (a different event id each), concurrently: one update, no copy
          yield* Effect.all(
            [
              Effect.forEach(
                ["evt_2", "evt_3", "evt_4"],
                (id) =>
                  feed(app, "bank-aggregator-a", id, "item_1", [
                    { id: "tx_1", amount: -1300, name: "Card payment settled" },
                    { id: "tx_3", amount: -500 }
                  ]),
                { concurrency: "unbounded" }
              ),
              settle(2).pipe(Effect.repeat({ times: 3 }))
            ],
            { concurrency: "unbounded" }
          )
          yield* settle(2)
          const after = yield* listed(app, token)
          assert.strictEqual(after.length, 3, JSON.stringify(after))
          const settled = after.find((t) => t.id === pendingOne.id)!
          assert.deepStrictEqual(
            [settled.name, settled.amount, settled.status, settled.category?.slug],
            ["Card payment settled", -13, "posted", "travel"],
            "the bank's fields change, the team's category stays"
          )
          assert.strictEqual(yield* liveBalance(teamId), 0, "a bank feed moves no ledger money")
        })
      )
    )

    it.effect("deposits still credit the live account; unknown connections wait; other teams see nothing", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { teamId, token } = yield* newTeam(app)
          const other = yield* newTeam(app)
          yield* deposit(app, "banking-b", "dep_feed_1", teamId, 700)
          yield* feed(app, "banking-b", "evt_ghost", "conn_unknown", [{ id: "tx_x", amount: 1 }])
          yield* settle()
          assert.strictEqual(yield* liveBalance(teamId), 700)
          assert.deepStrictEqual(yield* listed(app, token), [])
          yield* connect(teamId, "banking-c", "conn_c")
          yield* feed(app, "banking-c", "evt_c1", "conn_c", [{ id: "tx_c", amount: 4200 }])
          yield* settle()
          assert.deepStrictEqual(
            (yield* listed(app, token)).map((t) => t.amount),
            [42]
          )
          assert.deepStrictEqual(yield* listed(app, other.token), [])
        })
      )
    )

    it.effect("concurrent imports of one provider transaction create it once (the repository's key)", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { teamId, token } = yield* newTeam(app)
          yield* connect(teamId, "bank-aggregator-b", "enr_1")
          yield* feed(app, "bank-aggregator-b", "evt_b1", "enr_1", [{ id: "tx_seed", amount: -1 }])
          yield* settle()
          const [seeded] = yield* listed(app, token)
          const repo = yield* TransactionsRepo
          const seed = (yield* repo.find(teamId, seeded!.id as never)).pipe((o) =>
            o._tag === "Some" ? o.value : null
          )!
          const outcomes = yield* Effect.forEach(
            Array.from({ length: 10 }),
            () =>
              repo.insertImported({
                ...seed.transaction,
                id: crypto.randomUUID() as never,
                providerTransactionId: "tx_race"
              }),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(outcomes.filter((o) => o.outcome === "created").length, 1)
          assert.strictEqual(new Set(outcomes.map((o) => o.id)).size, 1)
          assert.strictEqual((yield* listed(app, token)).length, 2)
        })
      )
    )
  })

import { assert, describe, layer } from "@effect/vitest"
import { clientForUrl, PortsPg } from "@svc/adapters-pg"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { type CardAuthorizationAnswer, Checkout } from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import {
  authorization,
  authorizationMoves,
  authorize,
  balanceOf,
  checkoutDomainOver,
  intent,
  intentWithCard
} from "./CheckoutDomainSetup.ts"

/** Checkout as one API process runs it: its own services over its own pool on the database at `url`. */
const apiProcessOn = ({ url, pooler }: TestDatabaseUrl["Service"]) =>
  checkoutDomainOver(PortsPg.pipe(Layer.provide(clientForUrl(Redacted.make(url), 4, pooler))))

type ProcessServices = Layer.Success<ReturnType<typeof apiProcessOn>>

/**
 * Three API processes on the test database, sharing nothing but Postgres, and a runner of an effect in process `n`
 * modulo three, so that consecutive attempts land on different processes.
 */
const threeProcesses = Effect.gen(function* () {
  const database = yield* TestDatabaseUrl
  const processes = yield* Effect.all([1, 2, 3].map(() => Layer.build(apiProcessOn(database))))
  return <A, E>(self: Effect.Effect<A, E, ProcessServices>, n: number) =>
    Effect.provideContext(self, processes[n % processes.length]!)
})

// PGlite serves one backend to a single connection, so separate pools cannot run side by side on it.
describe.skipIf(process.env.DATABASE_URL === undefined)("checkout across processes (needs real Postgres)", () => {
  layer(TestDatabase, { timeout: "120 seconds" })("three API processes, one Postgres database", (it) => {
    it.effect("authorizations of one intent from three processes at once: one is approved and one hold placed", () =>
      Effect.gen(function* () {
        const run = yield* threeProcesses
        const { agent } = yield* run(fundedAgent({ funds: 100_000 }), 0)
        const { intent: created, cardToken } = yield* run(intentWithCard(agent), 0)
        const replayed = authorization(cardToken, { amount: 3_000 })
        const requests = [
          ...Array.from({ length: 12 }, () => authorization(cardToken, { amount: 3_000 })),
          ...Array.from({ length: 3 }, () => replayed)
        ]
        const answers: ReadonlyArray<CardAuthorizationAnswer> = yield* Effect.forEach(
          requests,
          (request, n) => run(authorize(request), n),
          { concurrency: "unbounded" }
        )
        const approvedTokens = requests.filter((_, n) => answers[n]?.approve_response === "APPROVED")
        assert.strictEqual(new Set(approvedTokens.map((r) => r.token)).size, 1)
        const replayAnswers = answers.slice(12)
        assert.deepStrictEqual(replayAnswers, [replayAnswers[0], replayAnswers[0], replayAnswers[0]])
        assert.isTrue(
          answers
            .filter((a) => a.approve_response === "DECLINED")
            .every((a) => a.decline_reason === "intent_not_approved")
        )
        yield* run(
          Effect.gen(function* () {
            assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:3000"])
            assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 3_000, available: 97_000 })
            const now = yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))
            assert.strictEqual(now.status, "authorized")
            assert.strictEqual(now.authorizedAmount, 3_000)
            yield* assertLedgerInvariants(agent.teamId)
          }),
          1
        )
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<{ status: string; count: number }>`
          SELECT status, count(*)::int AS count FROM card_authorizations WHERE card_token = ${cardToken}
          GROUP BY status ORDER BY status`
        assert.deepStrictEqual(
          stored.map((row) => [row.status, row.count]),
          [
            ["approved", 1],
            ["declined", 12]
          ]
        )
      })
    )

    it.effect("credentials asked for at once from three processes: one card is kept, its numbers answered once", () =>
      Effect.gen(function* () {
        const run = yield* threeProcesses
        const { agent } = yield* run(fundedAgent({ funds: 100_000 }), 0)
        const created = yield* run(intent(agent), 0)
        const answers = yield* Effect.forEach(
          Array.from({ length: 9 }),
          (_, n) =>
            run(
              Checkout.use((c) => c.credentials(agent, created.id)),
              n
            ),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(answers.map((a) => a.cardId)).size, 1)
        assert.strictEqual(answers.filter((a) => a.number !== undefined).length, 1)
        const sql = yield* SqlClient.SqlClient
        const cards = yield* sql<{ id: string }>`SELECT id FROM checkout_cards WHERE intent_id = ${created.id}`
        assert.deepStrictEqual(
          cards.map((c) => c.id),
          [answers[0]?.cardId]
        )
        const now = yield* run(
          Checkout.use((c) => c.get(agent.teamId, "test", created.id)),
          2
        )
        assert.strictEqual(now.card?.id, answers[0]?.cardId)
      })
    )
  })
})

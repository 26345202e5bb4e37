import { assert, layer } from "@effect/vitest"
import { migrations, PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import {
  type AgentPrincipal,
  PaymentCodes,
  ReceiveAddresses,
  type Transfer,
  type TransferId,
  Transfers,
  TransfersRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { balanceOf, madeBeforeCodesWereHeld, send, transfersDomainOver } from "../transfers/TransferDomainSetup.ts"

const pg = PortsPg.pipe(Layer.provideMerge(TestDatabase))

/** The transfer as stored, not as of now (reading it through the service would expire a due one). */
const stored = (id: TransferId) =>
  Effect.map(
    TransfersRepo.use((r) => r.find(id)),
    Option.getOrThrow
  )

/** Leaves `t` as the issue-42 acceptance left it: `completed`, though its hold stayed and no one was credited. */
const leftCompletedUnpaid = (t: Transfer) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE transfers DISABLE TRIGGER transfers_final_status`
    yield* sql`UPDATE transfers SET status = 'completed', expires_at = NULL WHERE id = ${t.id}`
    yield* sql`ALTER TABLE transfers ENABLE TRIGGER transfers_final_status`
  })

layer(Layer.merge(transfersDomainOver(pg), pg), { timeout: "60 seconds", excludeTestServices: true })(
  "migration 0038 (payment code reservations)",
  (it) => {
    it.effect(
      "a transfer left completed without its credit becomes due, and its expiry releases the hold; unused codes are held by their oldest open transfer",
      () =>
        Effect.gen(function* () {
          const payee = yield* fundedAgent({ funds: 0 })
          const a = yield* fundedAgent({ funds: 10_000 })
          const c = yield* fundedAgent({ funds: 10_000 })
          const d = yield* fundedAgent({ funds: 10_000 })
          const codes = yield* PaymentCodes
          const service = yield* Transfers
          const address = (yield* ReceiveAddresses.use((r) => r.own(payee.team.id, "test"))).address
          /** A transfer of the agent's to the payee, canceled: the parties of a transfer stored as before. */
          const like = (agent: AgentPrincipal) =>
            Effect.flatMap(send(agent, { to: { address }, amount: 2_500 }), (t) => service.cancel(agent, t.id))
          const code = yield* codes.create({ teamId: payee.team.id, mode: "test" }, { amount: 2_500 })
          const shared = yield* codes.create({ teamId: payee.team.id, mode: "test" }, {})
          const paid = yield* send(a.agent, { to: { paymentCode: code.code }, amount: 2_500 })
          const stuck = yield* madeBeforeCodesWereHeld(yield* like(c.agent), code.code)
          const older = yield* madeBeforeCodesWereHeld(yield* like(c.agent), shared.code)
          const younger = yield* madeBeforeCodesWereHeld(yield* like(d.agent), shared.code)
          yield* service.accept(payee.agent, paid.id)
          yield* leftCompletedUnpaid(stuck)
          assert.deepStrictEqual(yield* balanceOf(c.agent), { posted: 10_000, pending: 5_000, available: 5_000 })

          const sql = yield* SqlClient.SqlClient
          yield* sql`ALTER TABLE payment_codes DROP COLUMN reserved_by_transfer_id`
          const [, , load] = (yield* migrations).find(([id]) => id === 38)!
          yield* (yield* load) as Effect.Effect<void, unknown, SqlClient.SqlClient>

          const repaired = yield* stored(stuck.id)
          assert.strictEqual(repaired.status, "pending_acceptance")
          assert.isAtMost(Date.parse(repaired.expiresAt!), Date.now(), "due at once")
          assert.strictEqual((yield* stored(paid.id)).status, "completed", "a paid transfer stays completed")
          assert.strictEqual((yield* codes.resolve("test", code.code)).usedByTransferId, paid.id)
          assert.strictEqual((yield* codes.resolve("test", shared.code)).reservedByTransferId, older.id)

          assert.isAtLeast(yield* service.expireDue, 1)
          assert.strictEqual((yield* service.get(c.team.id, "test", stuck.id)).status, "expired")
          assert.deepStrictEqual(yield* balanceOf(c.agent), { posted: 10_000, pending: 2_500, available: 7_500 })
          assert.deepStrictEqual(yield* balanceOf(payee.agent), { posted: 2_500, pending: 0, available: 2_500 })
          assert.strictEqual((yield* service.accept(payee.agent, older.id)).status, "completed")
          const refused = yield* Effect.flip(service.accept(payee.agent, younger.id))
          assert.deepStrictEqual(refused._tag === "PaymentCodeUnusable" && refused.status, "used")
          yield* assertLedgerInvariants(c.team.id)
          yield* assertLedgerInvariants(payee.team.id)
        })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { simulatedPayoutRail } from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { CryptoPayouts, CryptoPayoutsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { payOut, payoutsDomainOver } from "./PayoutsSetup.ts"

const ports = PortsPg.pipe(Layer.provideMerge(TestDatabase))

layer(payoutsDomainOver(ports, simulatedPayoutRail({ confirmAfterPolls: 100 })).pipe(Layer.provideMerge(ports)), {
  timeout: "60 seconds"
})("crypto_payouts (migration 0032)", (it) => {
  it.effect(
    "a submitted payout's transaction never changes, a final payout never changes, approvals hold payouts",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 500 } })
        const service = yield* CryptoPayouts
        const awaiting = yield* payOut(agent, approver, 600)
        const [approval] = yield* sql<{
          subjectType: string
        }>`SELECT subject_type FROM approvals WHERE id = ${awaiting.approval!.id}`
        assert.strictEqual(approval?.subjectType, "crypto_payout")
        yield* service.approve(approver, awaiting.approval!.id, null)
        yield* service.processDue
        const [row] = yield* sql<{ status: string; txHash: string; payload: string }>`
        SELECT status, tx_hash, payload FROM crypto_payouts WHERE id = ${awaiting.id}`
        assert.strictEqual(row?.status, "submitted")
        assert.isTrue((row?.payload ?? "").includes(row?.txHash ?? "?"))
        const rewrite = yield* Effect.flip(
          sql`UPDATE crypto_payouts SET payload = 'other', tx_hash = '0xother' WHERE id = ${awaiting.id}`
        )
        const rewritten = rewrite.reason.cause as { code?: string; message?: string }
        assert.deepStrictEqual(rewritten.code, "23001")
        assert.match(rewritten.message ?? "", /submitted once already/u)
        const resubmit = yield* CryptoPayoutsRepo.use((r) =>
          r.submit(awaiting.id, { txHash: "0xother", payload: "other" }, new Date().toISOString())
        )
        assert.isTrue(resubmit._tag === "None")

        const canceled = yield* service.cancel(agent, (yield* payOut(agent, approver, 100)).id)
        const revive = yield* Effect.flip(sql`UPDATE crypto_payouts SET status = 'pending' WHERE id = ${canceled.id}`)
        const revived = revive.reason.cause as { code?: string; message?: string }
        assert.deepStrictEqual(revived.code, "23001")
        assert.match(revived.message ?? "", /is final/u)
      })
  )
})

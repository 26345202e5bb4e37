import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { X402Payments, X402PaymentsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { paymentRequiredV2, RESOURCE, requirementV2, x402DomainOver } from "./X402Setup.ts"

const ports = PortsPg.pipe(Layer.provideMerge(TestDatabase))

const refusal = (e: { readonly reason: { readonly cause: unknown } }) =>
  e.reason.cause as { readonly code?: string; readonly message?: string }

layer(x402DomainOver(ports).pipe(Layer.provideMerge(ports)), { timeout: "60 seconds" })(
  "x402_payments and x402_wallets (migration 0055)",
  (it) => {
    it.effect("a signed authorization never changes, a final payment never changes, approvals hold payments", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { agent } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 500 } })
        const service = yield* X402Payments
        const pay = (amount: string) =>
          service.create(agent, {
            resourceUrl: RESOURCE,
            paymentRequired: paymentRequiredV2(RESOURCE, requirementV2({ amount }))
          })
        const signed = yield* pay("1000000")
        const awaiting = yield* pay("6000000")
        const [approval] = yield* sql<{ subjectType: string }>`
          SELECT subject_type FROM approvals WHERE id = ${awaiting.approval!.id}`
        assert.strictEqual(approval?.subjectType, "x402_payment")

        const resign = refusal(
          yield* Effect.flip(sql`UPDATE x402_payments SET signature = '0xother' WHERE id = ${signed.id}`)
        )
        assert.strictEqual(resign.code, "23001")
        assert.match(resign.message ?? "", /signed once already/u)
        const again = yield* X402PaymentsRepo.use((r) =>
          r.sign(signed.id, {
            authorization: signed.authorization!,
            signature: "0xother",
            authorizationExpiresAt: signed.authorizationExpiresAt!,
            signedAt: signed.signedAt!
          })
        )
        assert.strictEqual(again._tag, "None")

        const copy = refusal(
          yield* Effect.flip(
            sql`UPDATE x402_payments SET authorization_json = ${JSON.stringify(signed.authorization)},
                  signature = '0x01', signed_at = now(), authorization_expires_at = now(), status = 'signed'
                WHERE id = ${awaiting.id}`
          )
        )
        assert.strictEqual(copy.code, "23505", "one nonce a wallet and chain")

        const denied = yield* pay("200000000")
        assert.strictEqual(denied.status, "denied", "more than the account holds")
        const revive = refusal(
          yield* Effect.flip(sql`UPDATE x402_payments SET status = 'signed' WHERE id = ${denied.id}`)
        )
        assert.match(revive.message ?? "", /is final/u)
        assert.strictEqual(revive.code, "23001")
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { CardAuthorizationsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0053 (card refunds)",
  (it) => {
    it.effect("authorizations decided before it read as refunding nothing; only a cleared one may be refunded", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(53))
        const insert = (token: string, status: string, heldAmount: number) =>
          sql`INSERT INTO card_authorizations (token, card_token, status, decline_reason, amount, currency,
                merchant_descriptor, held_amount, updated_at)
              VALUES (${token}, 'card_tok_none', ${status}, ${status === "declined" ? "card_not_found" : null}, 700,
                'USD', 'ACME', ${heldAmount}, now())`
        yield* insert("auth_declined", "declined", 0)
        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 53)
        const repo = yield* CardAuthorizationsRepo
        assert.deepInclude(Option.getOrThrow(yield* repo.find("auth_declined")), {
          status: "declined",
          refundedAmount: 0
        })
        assert.isTrue(Option.isNone(yield* repo.addRefund("auth_declined", 100, new Date().toISOString())))
        const refused = yield* Effect.flip(
          sql`UPDATE card_authorizations SET refunded_amount = 100 WHERE token = 'auth_declined'`
        )
        assert.strictEqual(refused._tag, "SqlError")
      })
    )
  }
)

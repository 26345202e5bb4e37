import { assert, layer } from "@effect/vitest"
import { migrations, PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { normalizeMerchantName, SpendRequestsRepo, usageWindows } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { domainOver, fundedAgent, spend } from "../spend/SpendSetup.ts"

const pg = PortsPg.pipe(Layer.provideMerge(TestDatabase))

layer(Layer.merge(domainOver(pg), pg), { timeout: "60 seconds" })("migration 0021 (known merchants)", (it) => {
  it.effect("backfills the merchants each team paid, by normalised name, and none it did not pay", () =>
    Effect.gen(function* () {
      const { team, agent, key } = yield* fundedAgent({
        funds: 10_000,
        policy: { approvalThreshold: 5_000, blockedMerchants: ["Blocked Shop"] }
      })
      const other = yield* fundedAgent({ funds: 10_000 })
      assert.strictEqual((yield* spend(agent, 100, "  Paid   SHOP ")).status, "approved")
      assert.strictEqual((yield* spend(agent, 6_000, "Pending Shop")).status, "pending_approval")
      assert.strictEqual((yield* spend(agent, 100, "Blocked Shop")).status, "denied")
      assert.strictEqual((yield* spend(other.agent, 100, "Elsewhere Shop")).status, "approved")

      const sql = yield* SqlClient.SqlClient
      yield* sql`DROP TABLE known_merchants`
      const [, , load] = (yield* migrations).find(([id]) => id === 21)!
      yield* (yield* load) as Effect.Effect<void, unknown, SqlClient.SqlClient>

      const repo = yield* SpendRequestsRepo
      const known = (merchant: string) =>
        repo
          .lockForDecisions([
            {
              teamId: team.id,
              mode: "test",
              accountId: key.accountId,
              spendingKeyId: key.id,
              windows: usageWindows(0, null),
              at: 0,
              requestLimits: {},
              merchant: normalizeMerchantName(merchant)
            }
          ])
          .pipe(Effect.map(([inputs]) => inputs?.merchantKnown))
      assert.isTrue(yield* known("paid shop"))
      assert.isFalse(yield* known("Pending Shop"))
      assert.isFalse(yield* known("Blocked Shop"))
      assert.isFalse(yield* known("Elsewhere Shop"), "another team's merchant")
    })
  )
})

import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })("approval steps on Postgres", (it) => {
  it.effect("a recorded step is never changed or removed, and a member has one step per approval", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [team, user, approval] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
      yield* sql`INSERT INTO users (id, email, created_at) VALUES (${user}, 'owner@example.com', now())`
      yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'T', 'USD', now())`
      yield* sql`INSERT INTO approvals (id, team_id, mode, subject_type, subject_id, status, expires_at)
                 VALUES (${approval}, ${team}, 'test', 'spend_request', ${crypto.randomUUID()}, 'pending', now())`
      const step = sql`INSERT INTO approval_steps (approval_id, team_id, user_id, role, decision, decided_at)
                       VALUES (${approval}, ${team}, ${user}, 'owner', 'approved', now())`
      yield* step
      assert.strictEqual((yield* Effect.flip(step))._tag, "SqlError")
      assert.strictEqual(
        (yield* Effect.flip(sql`UPDATE approval_steps SET decision = 'denied' WHERE approval_id = ${approval}`))._tag,
        "SqlError"
      )
      assert.strictEqual(
        (yield* Effect.flip(sql`DELETE FROM approval_steps WHERE approval_id = ${approval}`))._tag,
        "SqlError"
      )
      const rows = yield* sql<{ decision: string }>`SELECT decision FROM approval_steps WHERE approval_id = ${approval}`
      assert.deepStrictEqual(
        rows.map((r) => r.decision),
        ["approved"]
      )
    })
  )
})

import { assert, layer } from "@effect/vitest"
import { PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import { ReceiveAddresses, TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

const NAMES = ["Acme", "Acme", "Café Über GmbH", "!!!", "A very long team name indeed, longer than twenty", "été"]

layer(ReceiveAddresses.layer.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(TestDatabaseBefore(15))), {
  timeout: "60 seconds"
})("migration 0015 (receive addresses)", (it) => {
  it.effect("gives every existing team one handle: both modes' addresses well-formed, slugged and unique", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const teams = NAMES.map((name) => ({ id: TeamId.make(crypto.randomUUID()), name }))
      for (const team of teams) {
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team.id}, ${team.name}, 'USD', now())`
      }

      yield* runMigrations()

      const addresses = yield* ReceiveAddresses
      const suffix = "[23456789abcdefghjkmnpqrstuvwxyz]{4}"
      const slugs = ["acme", "acme", "cafe-uber-gmbh", "team", "a-very-long-team-nam", "ete"]
      const handles: Array<string> = []
      for (const [i, team] of teams.entries()) {
        const live = yield* addresses.own(team.id, "live")
        const test = yield* addresses.own(team.id, "test")
        assert.match(live.address, new RegExp(`^${slugs[i]}-${suffix}@svc$`, "u"))
        const handle = live.address.slice(0, -"@svc".length)
        assert.strictEqual(test.address, `${handle}@test.svc`)
        assert.strictEqual(live.teamName, team.name)
        assert.deepStrictEqual(yield* addresses.resolve("test", test.address), test)
        handles.push(handle)
      }
      assert.strictEqual(new Set(handles).size, teams.length, "every handle is unique")
      const change = yield* Effect.flip(
        sql`UPDATE receive_handles SET handle = 'other-2222' WHERE team_id = ${teams[0]?.id}`
      )
      assert.strictEqual(change._tag, "SqlError", "a handle never changes")
    })
  )
})

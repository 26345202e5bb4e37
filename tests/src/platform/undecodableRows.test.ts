import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { type AccountId, InboundEventStore, LedgerRepo, type TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { appOnThisDatabase, sessionToken } from "../support/InProcessApp.ts"

const database = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

const storeEvent = (status: string, attempts: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = crypto.randomUUID()
    yield* sql`INSERT INTO inbound_events (id, endpoint, provider_event_id, type, payload, status, attempts,
                                          next_attempt_at, received_at)
               VALUES (${id}, 'kyc-a', ${id}, 'applicantReviewed', '{"entity_id": "e-1"}'::jsonb, ${status},
                       ${attempts}, now(), now())`
    return id
  })

/** The in-process app on the test's own database, answering fetch-style requests. */

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)))(`rows that do not decode (${database})`, (it) => {
  it.effect("an inbound event with a status the domain does not know is PersistenceUnavailable, never a value", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* InboundEventStore
      const valid = yield* storeEvent("pending", 0)
      const found = yield* store.find(valid)
      assert.isTrue(Option.isSome(found))
      assert.deepStrictEqual(Option.getOrThrow(found).payload, { entity_id: "e-1" })

      yield* sql`ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_status_check`
      const unknown = yield* storeEvent("exploded", 0)
      const error = yield* Effect.flip(store.find(unknown))
      assert.strictEqual(error._tag, "PersistenceUnavailable")
      assert.strictEqual(error.operation, "inboundEvents.find")
    })
  )

  it.effect("an attempt count below the schema's range fails the whole claim instead of handing out the row", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* InboundEventStore
      yield* sql`DELETE FROM inbound_events`
      yield* storeEvent("pending", -2)
      const claim = { now: new Date(Date.now() + 60_000).toISOString(), leaseUntil: new Date().toISOString(), limit: 5 }
      const error = yield* Effect.flip(store.claimDue(claim))
      assert.strictEqual(error._tag, "PersistenceUnavailable")
      assert.strictEqual(error.operation, "inboundEvents.claimDue")
    })
  )

  it.effect(
    "an account whose posted sum is beyond the safe-integer range is PersistenceUnavailable, never rounded",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const ledger = yield* LedgerRepo
        const teamId = crypto.randomUUID() as TeamId
        const id = crypto.randomUUID() as AccountId
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Acme', 'USD', now())`
        const createdAt = new Date().toISOString()
        yield* ledger.insertAccount({
          id,
          teamId,
          mode: "test",
          kind: "spend",
          name: "Main",
          currency: "USD",
          createdAt
        })
        yield* sql`UPDATE ledger_accounts SET posted_sum = ${Number.MAX_SAFE_INTEGER} WHERE id = ${id}`
        const largest = yield* ledger.findAccount(teamId, id)
        assert.strictEqual(Option.getOrThrow(largest).balance.posted, Number.MAX_SAFE_INTEGER)

        yield* sql`UPDATE ledger_accounts SET posted_sum = posted_sum + 2 WHERE id = ${id}`
        const error = yield* Effect.flip(ledger.findAccount(teamId, id))
        assert.strictEqual(error._tag, "PersistenceUnavailable")
        assert.strictEqual(error.operation, "ledger.findAccount")
        const listed = yield* Effect.flip(ledger.listAccounts(teamId, {}))
        assert.strictEqual(listed.operation, "ledger.listAccounts")
      })
  )

  it.effect("over HTTP, a stored API key that does not decode answers 503 without internals", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const app = yield* appOnThisDatabase
      const token = yield* Effect.promise(() => sessionToken())
      const call = (method: string, path: string, body?: unknown) =>
        Effect.promise(() => app.call(method, path, { token, ...(body === undefined ? {} : { body }) }))
      assert.strictEqual((yield* call("POST", "/teams", { name: "Acme" })).status, 201)
      const created = yield* call("POST", "/api-keys", { name: "Reporting" })
      assert.strictEqual(created.status, 201)
      assert.strictEqual((yield* call("GET", "/api-keys")).status, 200)

      yield* sql`UPDATE api_keys SET scopes = '"everything"'::jsonb WHERE id = ${created.body.id}`
      const answer = yield* call("GET", "/api-keys")
      assert.strictEqual(answer.status, 503)
      assert.strictEqual(answer.body.error, "service_unavailable")
      assert.notMatch(JSON.stringify(answer.body), /everything|scopes|apiKeys\.list|SchemaError|Expected/iu)
    }).pipe(Effect.scoped)
  )
})

import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { toBase64Url, utf8 } from "@svc/domain"
import { Effect, Layer } from "effect"
import { appOnThisDatabase, sessionToken } from "../support/InProcessApp.ts"

const database = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)))(`list cursors (${database})`, (it) => {
  it.effect("a forged cursor never reaches SQL: 400 invalid_cursor, not 503", () =>
    Effect.gen(function* () {
      const app = yield* appOnThisDatabase
      const owner = yield* Effect.promise(() => sessionToken())
      yield* Effect.promise(() => app.call("POST", "/teams", { token: owner, body: { name: "Acme" } }))
      const forged = toBase64Url(utf8(JSON.stringify({ createdAt: "x", id: "y" })))
      const answer = yield* Effect.promise(() => app.call("GET", `/treasury/ledger?cursor=${forged}`, { token: owner }))
      assert.strictEqual(answer.status, 400)
      assert.strictEqual(answer.body.error, "invalid_cursor")
    })
  )
})

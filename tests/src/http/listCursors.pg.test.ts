import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { toBase64Url, utf8 } from "@svc/domain"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { clientOf, sessionToken, testConfig } from "../support/InProcessApp.ts"

const database = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)))(`list cursors (${database})`, (it) => {
  it.effect("a forged cursor never reaches SQL: 400 invalid_cursor, not 503", () =>
    Effect.gen(function* () {
      const context = yield* Effect.context<SqlClient.SqlClient>()
      const { handler, dispose } = HttpRouter.toWebHandler(
        appOnPostgres(testConfig).pipe(
          Layer.provide(Layer.succeedContext(context)),
          Layer.provide(HttpServer.layerServices)
        ),
        { disableLogger: true }
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
      const app = clientOf(handler)
      const owner = yield* Effect.promise(() => sessionToken())
      yield* Effect.promise(() => app.call("POST", "/teams", { token: owner, body: { name: "Acme" } }))
      const forged = toBase64Url(utf8(JSON.stringify({ createdAt: "x", id: "y" })))
      const answer = yield* Effect.promise(() => app.call("GET", `/treasury/ledger?cursor=${forged}`, { token: owner }))
      assert.strictEqual(answer.status, 400)
      assert.strictEqual(answer.body.error, "invalid_cursor")
    })
  )
})

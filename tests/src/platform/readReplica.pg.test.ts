import { assert, layer } from "@effect/vitest"
import { PortsPg, ReadReplica } from "@svc/adapters-pg"
import { EmptyTestDatabase, TestDatabase } from "@svc/adapters-pg/testing"
import { ReadYourWrites, TagsRepo, TeamId, Transactor } from "@svc/domain"
import { Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { financeTeam, scopedKey } from "../finance/FinanceHttpSetup.ts"
import { withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"

/** A replica on a database of its own: the primary's writes never reach it, as on a replica that lags at its worst. */
const replicaOf = (database: Layer.Layer<SqlClient.SqlClient>) =>
  Layer.effect(
    ReadReplica,
    Effect.map(Layer.build(Layer.fresh(database)), (services) => Context.get(services, SqlClient.SqlClient))
  )

const WINDOW_MS = 500
const config = { ...testConfig, readAfterWrite: Duration.millis(WINDOW_MS) }

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
const names = (answer: { status: number; body: any }) => {
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  return answer.body.data.map((tag: { name: string }) => tag.name)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

layer(PortsPg.pipe(Layer.provideMerge(replicaOf(TestDatabase)), Layer.provideMerge(TestDatabase)), {
  timeout: "120 seconds",
  excludeTestServices: true
})("lists behind a lagging read replica (ADR 0052)", (it) => {
  it.effect("the writer reads its own write for the window, then the replica; another caller reads the replica", () =>
    withAppOnPorts(async (app) => {
      const team = await financeTeam(app)
      const reader = await scopedKey(app, team, ["tags.read"])
      const created = await app.call("POST", "/tags", { token: team.owner, body: { name: "travel" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))

      assert.deepStrictEqual(names(await app.call("GET", "/tags", { token: team.owner })), ["travel"])
      // The team's other credential has not written: its list comes from the replica, which has not seen the tag.
      assert.deepStrictEqual(names(await app.call("GET", "/tags", { token: reader })), [])
      await sleep(WINDOW_MS + 200)
      assert.deepStrictEqual(names(await app.call("GET", "/tags", { token: team.owner })), [])
    }, config)
  )

  it.effect("reads inside a transaction, or for a caller that wrote, are the primary's", () =>
    withAppOnPorts(async (app, ports) => {
      const team = await financeTeam(app)
      assert.strictEqual((await app.call("POST", "/tags", { token: team.owner, body: { name: "travel" } })).status, 201)
      const tags = Context.get(ports, TagsRepo)
      const transactor = Context.get(ports, Transactor)
      const list = TagsRepo.use((repo) => repo.list(TeamId.make(team.id))).pipe(
        Effect.map((rows) => rows.map((tag) => tag.name)),
        Effect.provideService(TagsRepo, tags)
      )
      assert.deepStrictEqual(await Effect.runPromise(list), [])
      assert.deepStrictEqual(await Effect.runPromise(transactor.withTransaction(list)), ["travel"])
      assert.deepStrictEqual(await Effect.runPromise(list.pipe(Effect.provideService(ReadYourWrites, true))), [
        "travel"
      ])
    }, config)
  )
})

layer(PortsPg.pipe(Layer.provideMerge(replicaOf(EmptyTestDatabase)), Layer.provideMerge(TestDatabase)), {
  timeout: "120 seconds",
  excludeTestServices: true
})("a read replica that fails a read (ADR 0052)", (it) => {
  it.effect("the read runs on the primary instead: the caller gets the answer, not an error", () =>
    withAppOnPorts(async (app) => {
      const team = await financeTeam(app)
      const reader = await scopedKey(app, team, ["tags.read"])
      await app.call("POST", "/tags", { token: team.owner, body: { name: "travel" } })
      // The replica has no tables at all, so every read there fails.
      assert.deepStrictEqual(names(await app.call("GET", "/tags", { token: reader })), ["travel"])
    }, config)
  )
})

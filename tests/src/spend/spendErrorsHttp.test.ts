import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { PortsMemory } from "@svc/adapters-memory"
import { appLayer } from "@svc/api"
import { AccountId, LedgerRepo, newId, nowIso, type TeamId } from "@svc/domain"
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { clientOf, sessionToken, testConfig } from "../support/InProcessApp.ts"

let ledgerRepo: LedgerRepo["Service"] | undefined
const ports = PortsMemory.pipe(
  Layer.tap((context) =>
    Effect.sync(() => {
      ledgerRepo = Context.get(context, LedgerRepo)
    })
  )
)
const { handler, dispose } = HttpRouter.toWebHandler(
  appLayer(
    testConfig,
    ports,
    Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
  ).pipe(Layer.provide(HttpServer.layerServices)),
  { disableLogger: true }
)
const app = clientOf(handler)
afterAll(() => dispose())

let owner: string
let euroKey: string

const spendBody = (amount: number, currency: string) => ({
  amount,
  currency,
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens"
})

const create = (key: string, body: unknown) =>
  app.call("POST", "/v1/spend-requests", { token: key, body, headers: { "idempotency-key": crypto.randomUUID() } })

beforeAll(async () => {
  owner = await sessionToken()
  const team = await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })
  assert.strictEqual(team.status, 201)
  const euros = await Effect.runPromise(
    Effect.gen(function* () {
      const id = yield* newId(AccountId)
      yield* ledgerRepo!.insertAccount({
        id,
        teamId: team.body.id as TeamId,
        mode: "test",
        kind: "spend",
        name: "Euros",
        currency: "EUR",
        createdAt: yield* nowIso
      })
      return id
    })
  )
  const key = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "euro agent", mode: "test", accountId: euros, policy: { approvalThreshold: 100 } }
  })
  assert.strictEqual(key.status, 201)
  euroKey = key.body.secret
})

describe("errors a spend route can meet", () => {
  it("a spend account without a settlement account in its currency answers 409 settlement_account_missing", async () => {
    const answer = await create(euroKey, spendBody(50, "EUR"))
    assert.strictEqual(answer.status, 409)
    assert.strictEqual(answer.body.error, "settlement_account_missing")
    assert.strictEqual(answer.body.code, 409)
    assert.match(answer.body.message, /no test settlement account in EUR/u)
    const listed = await app.call("GET", "/v1/spend-requests", { token: euroKey })
    assert.deepStrictEqual(listed.body.data, [])
  })

  it("a stored refusal replays with its status and body, and a retry with the same key still spends nothing", async () => {
    const headers = { "idempotency-key": crypto.randomUUID() }
    const first = await app.call("POST", "/v1/spend-requests", { token: euroKey, body: spendBody(50, "EUR"), headers })
    const again = await app.call("POST", "/v1/spend-requests", { token: euroKey, body: spendBody(50, "EUR"), headers })
    assert.deepStrictEqual([first.status, again.status], [409, 409])
    assert.deepStrictEqual(again.body, first.body)
    assert.deepStrictEqual(
      [first.headers.get("idempotent-replayed"), again.headers.get("idempotent-replayed")],
      [null, "true"]
    )
    assert.strictEqual(again.headers.get("content-type"), first.headers.get("content-type"))
    const listed = await app.call("GET", "/v1/spend-requests", { token: euroKey })
    assert.deepStrictEqual(listed.body.data, [])
  })

  it("an approval the team does not hold answers 404 naming it", async () => {
    const id = crypto.randomUUID()
    const answer = await app.call("POST", `/treasury/approvals/${id}/approve`, { token: owner, body: {} })
    assert.strictEqual(answer.status, 404)
    assert.deepStrictEqual(answer.body, { error: "not_found", code: 404, message: `no approval ${id}` })
  })

  it("an idempotent POST whose body is over 1 MiB answers 413, not 500", async () => {
    const answer = await create(euroKey, { ...spendBody(50, "EUR"), purpose: "x".repeat(1_100_000) })
    assert.strictEqual(answer.status, 413)
    assert.strictEqual(answer.body.error, "payload_too_large")
  })
})

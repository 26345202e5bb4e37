import { afterAll, assert, describe, it } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { Ledger, TeamOpening, type UserId } from "@svc/domain"
import { Effect } from "effect"
import { domainOver } from "../ledger/LedgerSetup.ts"
import { inProcessApp, sessionToken } from "../support/InProcessApp.ts"

const owner = () => ({ id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: null })

describe("a team's accounts open in its base currency", () => {
  it.effect("domain on memory: EUR gives EUR accounts, no base currency gives USD ones", () =>
    Effect.gen(function* () {
      const opening = yield* TeamOpening
      const ledger = yield* Ledger
      const currencies = (teamId: Parameters<typeof ledger.accounts>[0]) =>
        ledger.accounts(teamId, {}).pipe(Effect.map((all) => all.map((a) => [a.mode, a.kind, a.currency]).toSorted()))
      const euro = yield* opening.open(owner(), { name: "Euro", baseCurrency: "EUR" })
      assert.deepStrictEqual(yield* currencies(euro.id), [
        ["live", "external", "EUR"],
        ["live", "settlement", "EUR"],
        ["live", "spend", "EUR"],
        ["test", "external", "EUR"],
        ["test", "settlement", "EUR"],
        ["test", "spend", "EUR"]
      ])
      const plain = yield* opening.open(owner(), { name: "Plain" })
      assert.deepStrictEqual(
        (yield* currencies(plain.id)).map(([, , currency]) => currency),
        Array.from({ length: 6 }, () => "USD")
      )
    }).pipe(Effect.provide(domainOver(PortsMemory)))
  )

  describe("over HTTP", () => {
    const app = inProcessApp()
    afterAll(() => app.dispose())

    it("POST /teams with baseCurrency EUR lists only EUR accounts on GET /treasury/accounts", async () => {
      const token = await sessionToken()
      const created = await app.call("POST", "/teams", { token, body: { name: "Euro", baseCurrency: "EUR" } })
      assert.strictEqual(created.status, 201)
      assert.strictEqual(created.body.baseCurrency, "EUR")
      const accounts = await app.call("GET", "/treasury/accounts", { token })
      assert.strictEqual(accounts.status, 200)
      assert.strictEqual(accounts.body.data.length, 6)
      assert.deepStrictEqual(new Set(accounts.body.data.map((a: { currency: string }) => a.currency)), new Set(["EUR"]))
    })

    it("POST /teams with a well-formed but unknown currency is a 400 naming baseCurrency", async () => {
      const token = await sessionToken()
      const refused = await app.call("POST", "/teams", { token, body: { name: "Nowhere", baseCurrency: "XYZ" } })
      assert.strictEqual(refused.status, 400)
      assert.include(JSON.stringify(refused.body), "baseCurrency")
    })

    it("POST /teams without baseCurrency keeps USD accounts", async () => {
      const token = await sessionToken()
      assert.strictEqual((await app.call("POST", "/teams", { token, body: { name: "Plain" } })).status, 201)
      const accounts = await app.call("GET", "/treasury/accounts", { token })
      assert.deepStrictEqual(new Set(accounts.body.data.map((a: { currency: string }) => a.currency)), new Set(["USD"]))
    })
  })
})

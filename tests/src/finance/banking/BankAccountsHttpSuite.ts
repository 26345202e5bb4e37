import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope, financeTeam, scopedKey } from "../FinanceHttpSetup.ts"

/** The bank accounts routes over HTTP, on the given ports. */
export const bankAccountsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`bank accounts over HTTP (${name})`, (it) => {
    it.effect("manual accounts: balances exact in major units, base balance in the team's currency", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app, "USD")
        const checking = await app.call("POST", "/bank-accounts", {
          token: acme.owner,
          body: { name: "Checking", currency: "USD", balance: 99_999.99 }
        })
        assert.strictEqual(checking.status, 201, JSON.stringify(checking.body))
        assert.deepInclude(checking.body, {
          name: "Checking",
          type: "depository",
          currency: "USD",
          balance: 99_999.99,
          baseCurrency: "USD",
          baseBalance: 99_999.99,
          enabled: true,
          manual: true,
          connectionId: null
        })

        // No EUR rate yet: the base balance is unknown.
        const euro = await app.call("POST", "/bank-accounts", {
          token: acme.owner,
          body: { name: "Euro", currency: "EUR", balance: 0.01, type: "other_asset" }
        })
        assert.deepInclude(euro.body, { balance: 0.01, baseCurrency: "USD", baseBalance: null, type: "other_asset" })

        // 1 EUR = 1.085 USD from 2000-01-01: 1,000.00 EUR is 1,085.00 USD.
        const rates = await app.call("PUT", "/exchange-rates", {
          token: acme.owner,
          body: { rates: [{ base: "EUR", quote: "USD", rate: "1.085", validOn: "2000-01-01" }] }
        })
        assert.strictEqual(rates.status, 200, JSON.stringify(rates.body))
        const converted = await app.call("PATCH", `/bank-accounts/${euro.body.id}`, {
          token: acme.owner,
          body: { balance: 1_000 }
        })
        assert.deepInclude(converted.body, { balance: 1_000, baseBalance: 1_085 })
        // 0.05 EUR * 1.085 = 0.05425 USD, rounded half away from zero: 0.05
        const small = await app.call("PATCH", `/bank-accounts/${euro.body.id}`, {
          token: acme.owner,
          body: { balance: -0.05 }
        })
        assert.deepInclude(small.body, { balance: -0.05, baseBalance: -0.05 })
        const given = await app.call("PATCH", `/bank-accounts/${euro.body.id}`, {
          token: acme.owner,
          body: { balance: 10, baseBalance: 11.11 }
        })
        assert.deepInclude(given.body, { balance: 10, baseBalance: 11.11 })

        const yen = await app.call("POST", "/bank-accounts", {
          token: acme.owner,
          body: { name: "Tokyo", currency: "JPY", balance: 500_000, type: "credit", enabled: false }
        })
        assert.deepInclude(yen.body, { balance: 500_000, type: "credit", enabled: false })

        const all = await app.call("GET", "/bank-accounts", { token: acme.owner })
        assert.deepStrictEqual(
          all.body.data.map((a: { name: string }) => a.name),
          ["Tokyo", "Euro", "Checking"],
          "newest first"
        )
        const enabled = await app.call("GET", "/bank-accounts?enabled=true", { token: acme.owner })
        assert.deepStrictEqual(
          enabled.body.data.map((a: { name: string }) => a.name),
          ["Euro", "Checking"]
        )
        const credit = await app.call("GET", "/bank-accounts?type=credit", { token: acme.owner })
        assert.deepStrictEqual(
          credit.body.data.map((a: { name: string }) => a.name),
          ["Tokyo"]
        )
        const paged = await app.call("GET", "/bank-accounts?limit=2", { token: acme.owner })
        assert.strictEqual(paged.body.data.length, 2)
        const rest = await app.call("GET", `/bank-accounts?limit=2&cursor=${paged.body.meta.cursor}`, {
          token: acme.owner
        })
        assert.deepStrictEqual(
          rest.body.data.map((a: { name: string }) => a.name),
          ["Checking"]
        )

        const got = await app.call("GET", `/bank-accounts/${checking.body.id}`, { token: acme.owner })
        assert.deepStrictEqual(got.body, checking.body)
        const renamed = await app.call("PATCH", `/bank-accounts/${checking.body.id}`, {
          token: acme.owner,
          body: { name: "Main", enabled: false, type: "other_asset" }
        })
        assert.deepInclude(renamed.body, { name: "Main", enabled: false, type: "other_asset", balance: 99_999.99 })
        const deleted = await app.call("DELETE", `/bank-accounts/${checking.body.id}`, { token: acme.owner })
        assert.strictEqual(deleted.body.id, checking.body.id)
        assert.strictEqual(
          (await app.call("GET", `/bank-accounts/${checking.body.id}`, { token: acme.owner })).status,
          404
        )
      })
    )

    it.effect("bad input names the field; other teams' accounts are not found", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const other = await financeTeam(app)
        const post = (body: unknown) => app.call("POST", "/bank-accounts", { token: acme.owner, body })
        const tooPrecise = await post({ name: "A", currency: "USD", balance: 12.345 })
        assertInvalid(tooPrecise, "balance")
        assert.include(tooPrecise.body.message, "at most 2 decimals")
        assertInvalid(await post({ name: "A", currency: "JPY", balance: 1.5 }), "balance")
        assertInvalid(await post({ name: "A", currency: "KWD", balance: 1.2345 }), "balance")
        assert.strictEqual((await post({ name: "A", currency: "KWD", balance: 1.234 })).body.balance, 1.234)
        assertInvalid(await post({ name: "A", currency: "EUR", balance: 1, baseBalance: 0.001 }), "baseBalance")
        assertInvalid(await post({ name: "A", currency: "XYZ" }), "currency")
        assertInvalid(await post({ name: "A", currency: "usd" }), "currency")
        assertInvalid(await post({ name: "A", currency: "USD", type: "savings" }), "type")
        assertInvalid(await post({ name: "A", currency: "USD", balance: "12" }), "balance")
        assertInvalid(await post({ currency: "USD" }), "name")
        assertInvalid(await app.call("GET", "/bank-accounts?enabled=yes", { token: acme.owner }), "query.enabled")
        assertInvalid(await app.call("GET", "/bank-accounts/nope", { token: acme.owner }), "params.id")

        const mine = await post({ name: "Mine", currency: "USD", balance: 5 })
        for (const [method, body] of [
          ["GET", undefined],
          ["PATCH", { name: "stolen" }],
          ["DELETE", undefined]
        ] as const) {
          const answer = await app.call(method, `/bank-accounts/${mine.body.id}`, {
            token: other.owner,
            ...(body === undefined ? {} : { body })
          })
          assert.strictEqual(answer.status, 404, method)
        }
        assert.deepStrictEqual((await app.call("GET", "/bank-accounts", { token: other.owner })).body.data, [])
        assertInvalid(
          await app.call("PATCH", `/bank-accounts/${mine.body.id}`, { token: acme.owner, body: { balance: 0.001 } }),
          "balance"
        )
      })
    )

    it.effect("API keys and OAuth need bank-accounts.read and bank-accounts.write", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const reader = await scopedKey(app, acme, ["bank-accounts.read"])
        assert.strictEqual((await app.call("GET", "/bank-accounts", { token: reader })).status, 200)
        assertNeedsScope(
          await app.call("POST", "/bank-accounts", { token: reader, body: { name: "A", currency: "USD" } }),
          "bank-accounts.write"
        )
        const writer = await scopedKey(app, acme, ["bank-accounts.write"])
        const created = await app.call("POST", "/bank-accounts", {
          token: writer,
          body: { name: "A", currency: "USD" }
        })
        assert.strictEqual(created.status, 201)
        assertNeedsScope(
          await app.call("GET", `/bank-accounts/${created.body.id}`, { token: writer }),
          "bank-accounts.read"
        )
      })
    )
  })

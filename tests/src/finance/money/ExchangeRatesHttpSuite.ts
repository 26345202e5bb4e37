import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope, financeTeam, scopedKey } from "../FinanceHttpSetup.ts"

const rate = (base: string, quote: string, value: string, validOn: string) => ({ base, quote, rate: value, validOn })

/** The exchange-rate routes over HTTP, on the given ports. */
export const exchangeRatesHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`exchange rates over HTTP (${name})`, (it) => {
    it.effect("the team sets, lists, replaces and deletes its rates; other teams never see them", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const other = await financeTeam(app)
        const set = await app.call("PUT", "/exchange-rates", {
          token: acme.owner,
          body: {
            rates: [
              rate("EUR", "USD", "1.0845", "2026-01-01"),
              rate("EUR", "USD", "1.1", "2026-02-01"),
              rate("USD", "JPY", "151.234567", "2026-01-01")
            ]
          }
        })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        const shown = (body: { rates: Array<{ base: string; quote: string; rate: string; validOn: string }> }) =>
          body.rates.map((r) => `${r.base}${r.quote} ${r.rate} ${r.validOn}`)
        assert.deepStrictEqual(shown(set.body), [
          "EURUSD 1.1 2026-02-01",
          "EURUSD 1.0845 2026-01-01",
          "USDJPY 151.234567 2026-01-01"
        ])
        const replaced = await app.call("PUT", "/exchange-rates", {
          token: acme.owner,
          body: { rates: [rate("EUR", "USD", "1.0900", "2026-01-01")] }
        })
        assert.include(shown(replaced.body), "EURUSD 1.09 2026-01-01", "kept as an exact decimal")
        assert.strictEqual(replaced.body.rates.length, 3)
        assert.deepStrictEqual((await app.call("GET", "/exchange-rates", { token: other.owner })).body, { rates: [] })

        const deleted = await app.call("DELETE", "/exchange-rates/EUR/USD", { token: acme.owner })
        assert.deepStrictEqual(deleted.body, { deleted: 2 })
        assert.deepStrictEqual(shown((await app.call("GET", "/exchange-rates", { token: acme.owner })).body), [
          "USDJPY 151.234567 2026-01-01"
        ])
      })
    )

    it.effect("bad rates are refused naming the field, and none of the batch is written", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const put = (rates: unknown) => app.call("PUT", "/exchange-rates", { token: acme.owner, body: { rates } })
        const ok = rate("EUR", "USD", "1.1", "2026-01-01")
        assertInvalid(await put([ok, rate("XYZ", "USD", "1", "2026-01-01")]), "rates.1.base")
        assertInvalid(await put([ok, rate("USD", "USD", "1", "2026-01-01")]), "rates.1.quote")
        assertInvalid(await put([ok, rate("GBP", "USD", "0", "2026-01-01")]), "rates.1.rate")
        assertInvalid(await put([ok, rate("GBP", "USD", "-1.2", "2026-01-01")]), "rates.1.rate")
        assertInvalid(await put([ok, rate("GBP", "USD", "1.2", "2026-02-30")]), "rates.1.validOn")
        assertInvalid(await put([ok, { ...ok, rate: 1.1 }]), "rates.1.rate")
        assertInvalid(await put([]), "rates")
        assert.deepStrictEqual((await app.call("GET", "/exchange-rates", { token: acme.owner })).body, { rates: [] })
        assertInvalid(await app.call("DELETE", "/exchange-rates/EUR/usd", { token: acme.owner }), "params.quote")
      })
    )

    it.effect("API keys and OAuth need teams.read to list and teams.write to change", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const reader = await scopedKey(app, acme, ["teams.read"])
        assert.strictEqual((await app.call("GET", "/exchange-rates", { token: reader })).status, 200)
        assertNeedsScope(
          await app.call("PUT", "/exchange-rates", {
            token: reader,
            body: { rates: [rate("EUR", "USD", "1.1", "2026-01-01")] }
          }),
          "teams.write"
        )
        assertNeedsScope(await app.call("DELETE", "/exchange-rates/EUR/USD", { token: reader }), "teams.write")
      })
    )
  })

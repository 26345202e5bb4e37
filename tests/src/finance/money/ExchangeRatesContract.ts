import { assert, layer } from "@effect/vitest"
import { convertOn, type ExchangeRate, ExchangeRates, type LedgerRepo, type TeamId } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../../ledger/LedgerSetup.ts"

const rate = (teamId: TeamId, base: string, quote: string, value: string, validOn: string): ExchangeRate => ({
  teamId,
  base,
  quote,
  rate: value,
  validOn,
  updatedAt: "2026-01-01T00:00:00.000Z"
})

/** The table-backed exchange rates, on any adapter. */
export const exchangeRatesContract = <E>(
  name: string,
  ports: Layer.Layer<LedgerPorts<ExchangeRates | LedgerRepo>, E>
) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`exchange rates (${name})`, (it) => {
    it.effect("the rate in force on a day, either way round, replaced in place, per team", () =>
      Effect.gen(function* () {
        const rates = yield* ExchangeRates
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        yield* rates.put([
          rate(team.id, "USD", "EUR", "0.9", "2026-01-01"),
          rate(team.id, "USD", "EUR", "0.95", "2026-02-01"),
          rate(team.id, "EUR", "USD", "1.25", "2026-03-01"),
          rate(other.id, "USD", "EUR", "2", "2025-01-01")
        ])
        const on = (from: string, to: string, day: string) =>
          rates.rateOn(team.id, from, to, day).pipe(Effect.map(Option.map((r) => `${r.base}${r.quote}@${r.rate}`)))
        assert.deepStrictEqual(yield* on("USD", "EUR", "2025-12-31"), Option.none(), "no rate before the first")
        assert.deepStrictEqual(yield* on("USD", "EUR", "2026-01-15"), Option.some("USDEUR@0.9"))
        assert.deepStrictEqual(yield* on("EUR", "USD", "2026-02-01"), Option.some("USDEUR@0.95"), "the inverse pair")
        assert.deepStrictEqual(yield* on("USD", "EUR", "2026-06-30"), Option.some("EURUSD@1.25"), "the later of both")
        assert.deepStrictEqual(yield* on("USD", "GBP", "2026-06-30"), Option.none())

        // 100.00 USD at 0.95 = 95.00 EUR; 10.00 EUR at the inverse of 0.95 = 10.526... USD -> 10.53
        assert.deepStrictEqual(yield* convertOn(team.id, 10_000, "USD", "EUR", "2026-02-10"), Option.some(9_500))
        assert.deepStrictEqual(yield* convertOn(team.id, 1_000, "EUR", "USD", "2026-02-10"), Option.some(1_053))
        assert.deepStrictEqual(yield* convertOn(team.id, 1_000, "EUR", "EUR", "2020-01-01"), Option.some(1_000))
        assert.deepStrictEqual(yield* convertOn(other.id, 1_000, "EUR", "GBP", "2026-02-10"), Option.none())

        yield* rates.put([rate(team.id, "USD", "EUR", "0.9215", "2026-01-01")])
        const listed = yield* rates.list(team.id)
        assert.deepStrictEqual(
          listed.map((r) => `${r.base}${r.quote}@${r.rate}/${r.validOn}`),
          ["EURUSD@1.25/2026-03-01", "USDEUR@0.95/2026-02-01", "USDEUR@0.9215/2026-01-01"]
        )
        assert.strictEqual(yield* rates.removePair(team.id, "USD", "EUR"), 2)
        assert.strictEqual((yield* rates.list(team.id)).length, 1)
        assert.strictEqual((yield* rates.list(other.id)).length, 1, "another team's rates stay")
      })
    )
  })

import { Context, Effect, Layer } from "effect"
import { nowIso, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { canonicalRate, type ExchangeRate } from "./ExchangeRate.ts"
import { ExchangeRates } from "./ExchangeRates.ts"

/** A rate the team sets: one `base` is `rate` `quote` from `validOn`. */
export interface SetRate {
  readonly base: string
  readonly quote: string
  readonly rate: string
  readonly validOn: string
}

/** The team's own table of exchange rates, which conversions to its base currency and reports read. */
export class ExchangeRateTable extends Context.Service<
  ExchangeRateTable,
  {
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<ExchangeRate>, PersistenceUnavailable>
    /**
     * Sets the rates in their shortest decimal form (a rate of the same pair and day is replaced), all or none; answers
     * the team's whole table.
     */
    readonly set: (
      teamId: TeamId,
      rates: ReadonlyArray<SetRate>
    ) => Effect.Effect<ReadonlyArray<ExchangeRate>, PersistenceUnavailable>
    /** Removes every rate of a pair in the direction given; how many were removed. */
    readonly removePair: (teamId: TeamId, base: string, quote: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ExchangeRateTable") {
  static readonly make = Effect.gen(function* () {
    const rates = yield* ExchangeRates
    const set = Effect.fn("ExchangeRateTable.set")(function* (teamId: TeamId, input: ReadonlyArray<SetRate>) {
      const updatedAt = yield* nowIso
      yield* rates.put(input.map((r) => ({ ...r, rate: canonicalRate(r.rate), teamId, updatedAt })))
      return yield* rates.list(teamId)
    })
    return ExchangeRateTable.of({ list: rates.list, set, removePair: rates.removePair })
  })
  static readonly layer = Layer.effect(ExchangeRateTable, ExchangeRateTable.make)
}

import { Context, Effect, Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { CalendarDate } from "./CalendarDate.ts"
import { convertMinor, type ExchangeRate } from "./ExchangeRate.ts"

/** The exchange rates each team fills in itself (table-backed; never fetched from the network). */
export class ExchangeRates extends Context.Service<
  ExchangeRates,
  {
    /** Stores the rates, replacing any of the same team, pair and `validOn`. */
    readonly put: (rates: ReadonlyArray<ExchangeRate>) => Effect.Effect<void, PersistenceUnavailable>
    /** Every rate of the team, by base, quote, then `validOn` newest first. */
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<ExchangeRate>, PersistenceUnavailable>
    /**
     * The rate in force on a day between two currencies, stated either way round: the latest `validOn` on or before
     * `on` (of the two directions, the later one; `from → to` on a tie).
     */
    readonly rateOn: (
      teamId: TeamId,
      from: string,
      to: string,
      on: CalendarDate
    ) => Effect.Effect<Option.Option<ExchangeRate>, PersistenceUnavailable>
    /** Removes the rates of a pair (in the direction given); how many were removed. */
    readonly removePair: (teamId: TeamId, base: string, quote: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ExchangeRates") {}

/**
 * An amount in minor units of `from` converted to `to` at the team's rate in force on `on`; none when the team has no
 * such rate. The same currency converts to itself.
 */
export const convertOn = Effect.fn("ExchangeRates.convertOn")(function* (
  teamId: TeamId,
  amountMinor: number,
  from: string,
  to: string,
  on: CalendarDate
) {
  if (from === to) return Option.some(amountMinor)
  const rates = yield* ExchangeRates
  const rate = yield* rates.rateOn(teamId, from, to, on)
  return Option.flatMap(rate, (r) => convertMinor(amountMinor, from, to, r))
})

/** The rate in force on a day from a list of rates (what `rateOn` answers, for adapters holding rates in memory). */
export const rateInForce = (
  rates: Iterable<ExchangeRate>,
  teamId: TeamId,
  from: string,
  to: string,
  on: CalendarDate
): Option.Option<ExchangeRate> => {
  let best: ExchangeRate | undefined
  for (const rate of rates) {
    if (rate.teamId !== teamId || rate.validOn > on) continue
    const direct = rate.base === from && rate.quote === to
    const inverse = rate.base === to && rate.quote === from
    if (!direct && !inverse) continue
    if (
      best === undefined ||
      rate.validOn > best.validOn ||
      (rate.validOn === best.validOn && direct && best.base !== from)
    ) {
      best = rate
    }
  }
  return Option.fromNullishOr(best)
}

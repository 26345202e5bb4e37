import { type ExchangeRate, ExchangeRates, rateInForce } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

const keyOf = (r: Pick<ExchangeRate, "teamId" | "base" | "quote" | "validOn">) =>
  `${r.teamId}\u0000${r.base}\u0000${r.quote}\u0000${r.validOn}`

const byListOrder = (a: ExchangeRate, b: ExchangeRate) =>
  a.base !== b.base
    ? a.base < b.base
      ? -1
      : 1
    : a.quote !== b.quote
      ? a.quote < b.quote
        ? -1
        : 1
      : a.validOn > b.validOn
        ? -1
        : 1

/** ExchangeRates over the in-memory store. */
export const ExchangeRatesMemory = Layer.effect(
  ExchangeRates,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, ExchangeRate>>(new Map())
    return ExchangeRates.of({
      put: (rates) =>
        store.atomically(
          Ref.update(rows, (all) => {
            const next = new Map(all)
            for (const rate of rates) next.set(keyOf(rate), rate)
            return next
          })
        ),
      list: (teamId) =>
        Ref.get(rows).pipe(
          Effect.map((all) => [...all.values()].filter((r) => r.teamId === teamId).toSorted(byListOrder))
        ),
      rateOn: (teamId, from, to, on) =>
        Ref.get(rows).pipe(Effect.map((all) => rateInForce(all.values(), teamId, from, to, on))),
      removePair: (teamId, base, quote) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const next = new Map(
              [...all].filter(([, r]) => !(r.teamId === teamId && r.base === base && r.quote === quote))
            )
            yield* Ref.set(rows, next)
            return all.size - next.size
          })
        )
    })
  })
)

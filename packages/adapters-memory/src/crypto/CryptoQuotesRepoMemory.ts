import { type CryptoQuote, type CryptoQuoteId, CryptoQuotesRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** CryptoQuotesRepo over the in-memory store; transactions are serialised, so a read inside one is already locked. */
export const CryptoQuotesRepoMemory = Layer.effect(
  CryptoQuotesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<CryptoQuoteId, CryptoQuote>())
    const find = (id: CryptoQuoteId) => Ref.get(rows).pipe(Effect.map(HashMap.get(id)))
    return CryptoQuotesRepo.of({
      insert: (quote) => store.atomically(Ref.update(rows, HashMap.set(quote.id, quote))),
      find,
      lock: find,
      markUsed: (id, payoutId, usedAt) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const current = HashMap.get(map, id)
            if (Option.isNone(current) || current.value.usedAt !== null)
              return [Option.none<CryptoQuote>(), map] as const
            const used: CryptoQuote = { ...current.value, payoutId, usedAt }
            return [Option.some(used), HashMap.set(map, id, used)] as const
          })
        )
    })
  })
)

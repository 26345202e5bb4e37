import { type Card, type CardId, CardsRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** CardsRepo over the in-memory store: one card per intent, found by its issuer token or its intent; closed for good. */
export const CardsRepoMemory = Layer.effect(
  CardsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const cards = yield* store.table(HashMap.empty<CardId, Card>())
    const findBy = (match: (card: Card) => boolean) =>
      Ref.get(cards).pipe(Effect.map((map) => Option.fromNullishOr(Array.from(HashMap.values(map)).find(match))))
    return CardsRepo.of({
      insert: (card) =>
        store.atomically(
          Ref.modify(cards, (map) =>
            Array.from(HashMap.values(map)).some((c) => c.intentId === card.intentId || c.token === card.token)
              ? [false, map]
              : [true, HashMap.set(map, card.id, card)]
          )
        ),
      findByToken: (token) => findBy((c) => c.token === token),
      findById: (teamId, mode, id) =>
        Ref.get(cards).pipe(
          Effect.map((map) => Option.filter(HashMap.get(map, id), (c) => c.teamId === teamId && c.mode === mode))
        ),
      findByIntent: (intentId) => findBy((c) => c.intentId === intentId),
      setStatus: (token, status, updatedAt) =>
        store.atomically(
          Ref.modify(cards, (map) => {
            const card = Array.from(HashMap.values(map)).find((c) => c.token === token)
            if (card === undefined) return [Option.none<Card>(), map] as const
            if (card.status === "closed") return [Option.some(card), map] as const
            const next: Card = { ...card, status, updatedAt }
            return [Option.some(next), HashMap.set(map, card.id, next)] as const
          })
        )
    })
  })
)

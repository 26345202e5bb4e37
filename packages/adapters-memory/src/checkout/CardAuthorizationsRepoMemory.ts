import {
  type AuthorizationInputs,
  balanceOf,
  type CardAuthorization,
  CardAuthorizationsRepo,
  CardsRepo,
  CheckoutIntentId,
  CheckoutIntentsRepo,
  EventOutbox,
  LedgerRepo
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { LedgerRepoMemory } from "../ledger/index.ts"
import { EventOutboxMemory } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"
import { CardsRepoMemory } from "./CardsRepoMemory.ts"
import { CheckoutIntentsRepoMemory } from "./CheckoutIntentsRepoMemory.ts"

/**
 * CardAuthorizationsRepo over the in-memory store, keyed by the issuer's authorization token. A decision is written
 * through the ledger, intents and outbox ports of the same store; writes are serialised by the store, so an approval's
 * checks that its intent, card and funds have not moved are made inside the store's atomic step.
 */
export const CardAuthorizationsRepoMemory = Layer.effect(
  CardAuthorizationsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const cards = yield* CardsRepo
    const intents = yield* CheckoutIntentsRepo
    const ledger = yield* LedgerRepo
    const outbox = yield* EventOutbox
    const rows = yield* store.table(HashMap.empty<string, CardAuthorization>())
    const find = (token: string) => Ref.get(rows).pipe(Effect.map(HashMap.get(token)))
    return CardAuthorizationsRepo.of({
      find,
      readForDecision: (token, cardToken) =>
        Effect.gen(function* () {
          const stored = yield* find(token)
          if (Option.isSome(stored)) return { _tag: "Decided", decision: stored.value } satisfies AuthorizationInputs
          const card = yield* cards.findByToken(cardToken)
          if (Option.isNone(card)) return { _tag: "NoCard" } satisfies AuthorizationInputs
          const intent = yield* intents.find(CheckoutIntentId.make(card.value.intentId))
          // A card is stored for an intent, and intents are never deleted.
          if (Option.isNone(intent)) return yield* Effect.die(new Error(`no checkout intent for card ${cardToken}`))
          const { teamId, mode, currency, accountId } = intent.value
          const settlement = yield* ledger.findAccountByKind(teamId, mode, "settlement", currency)
          const accounts = yield* ledger.lockAccounts([accountId, ...Option.toArray(settlement).map((a) => a.id)])
          return { _tag: "Card", card: card.value, intent: intent.value, accounts } satisfies AuthorizationInputs
        }),
      insertDecision: ({ authorization, hold, events }) =>
        store.atomically(
          Effect.gen(function* () {
            if (HashMap.has(yield* Ref.get(rows), authorization.token)) return false
            if (hold !== null) {
              const intentId = authorization.intentId
              // An approval holds on its intent's accounts.
              if (intentId === null)
                return yield* Effect.die(new Error(`approval ${authorization.token} without intent`))
              const intent = yield* intents.find(CheckoutIntentId.make(intentId))
              const card = yield* cards.findByToken(authorization.cardToken)
              if (Option.isNone(intent) || intent.value.status !== "approved") return false
              if (Option.isNone(card) || card.value.status !== "active") return false
              const [spend] = yield* ledger.lockAccounts([intent.value.accountId])
              if (spend === undefined || balanceOf(spend.counters).available < authorization.heldAmount) return false
              yield* ledger
                .insertTransaction(hold)
                .pipe(Effect.catchTags({ DuplicateLedgerTransaction: Effect.die, HoldAlreadyResolved: Effect.die }))
              const authorized = yield* intents.transition(CheckoutIntentId.make(intentId), ["approved"], {
                status: "authorized",
                authorizedAmount: authorization.heldAmount,
                updatedAt: authorization.createdAt
              })
              // Checked approved in this atomic step.
              if (Option.isNone(authorized))
                return yield* Effect.die(new Error(`intent ${intentId} changed in an atomic step`))
            }
            yield* outbox.publish(...events)
            yield* Ref.update(rows, HashMap.set(authorization.token, authorization))
            return true
          })
        ),
      addRefund: (token, amount, updatedAt) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const row = HashMap.get(map, token)
            if (Option.isNone(row) || row.value.status !== "cleared")
              return [Option.none<CardAuthorization>(), map] as const
            const next: CardAuthorization = {
              ...row.value,
              refundedAmount: row.value.refundedAmount + amount,
              updatedAt
            }
            return [Option.some(next), HashMap.set(map, token, next)] as const
          })
        ),
      update: (token, from, update) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const row = HashMap.get(map, token)
            if (Option.isNone(row) || !from.includes(row.value.status)) {
              return [Option.none<CardAuthorization>(), map] as const
            }
            const next: CardAuthorization = { ...row.value, ...update }
            return [Option.some(next), HashMap.set(map, token, next)] as const
          })
        )
    })
  })
).pipe(Layer.provide([CardsRepoMemory, CheckoutIntentsRepoMemory, LedgerRepoMemory, EventOutboxMemory]))

import { type PaymentCode, PaymentCodesRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** PaymentCodesRepo over the in-memory store; transactions are serialised, so a read inside one is already locked. */
export const PaymentCodesRepoMemory = Layer.effect(
  PaymentCodesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const codes = yield* store.table(HashMap.empty<string, PaymentCode>())
    const find = (code: string) => Ref.get(codes).pipe(Effect.map(HashMap.get(code)))
    return PaymentCodesRepo.of({
      insert: (code) =>
        store.atomically(
          Ref.modify(codes, (map) =>
            HashMap.has(map, code.code) ? [false, map] : [true, HashMap.set(map, code.code, code)]
          )
        ),
      find,
      findForUse: find,
      markUsed: (code, use) =>
        store.atomically(
          Ref.modify(codes, (map) => {
            const current = HashMap.get(map, code)
            if (Option.isNone(current) || current.value.usedAt !== null) return [Option.none<PaymentCode>(), map]
            const used: PaymentCode = { ...current.value, usedAt: use.usedAt, usedByTransferId: use.transferId }
            return [Option.some(used), HashMap.set(map, code, used)]
          })
        )
    })
  })
)

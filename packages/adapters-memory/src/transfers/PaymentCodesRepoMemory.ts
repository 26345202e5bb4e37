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
    /** Replaces the code by `change` of it when `when` holds of it; the new code, or none. */
    const changeIf = (code: string, when: (c: PaymentCode) => boolean, change: (c: PaymentCode) => PaymentCode) =>
      store.atomically(
        Ref.modify(codes, (map) => {
          const current = HashMap.get(map, code)
          if (Option.isNone(current) || !when(current.value)) return [Option.none<PaymentCode>(), map]
          const changed = change(current.value)
          return [Option.some(changed), HashMap.set(map, code, changed)]
        })
      )
    return PaymentCodesRepo.of({
      insert: (code) =>
        store.atomically(
          Ref.modify(codes, (map) =>
            HashMap.has(map, code.code) ? [false, map] : [true, HashMap.set(map, code.code, code)]
          )
        ),
      find,
      findForUse: find,
      reserve: (code, transferId) =>
        changeIf(
          code,
          (c) => c.usedAt === null && c.reservedByTransferId === null,
          (c) => ({ ...c, reservedByTransferId: transferId })
        ),
      release: (code, transferId) =>
        changeIf(
          code,
          (c) => c.reservedByTransferId === transferId,
          (c) => ({ ...c, reservedByTransferId: null })
        ).pipe(Effect.asVoid),
      markUsed: (code, use) =>
        changeIf(
          code,
          (c) => c.usedAt === null && (c.reservedByTransferId === null || c.reservedByTransferId === use.transferId),
          (c) => ({ ...c, usedAt: use.usedAt, usedByTransferId: use.transferId, reservedByTransferId: null })
        )
    })
  })
)

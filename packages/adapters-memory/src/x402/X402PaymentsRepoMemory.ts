import {
  ApprovalId,
  ApprovalsRepo,
  isAfter,
  newestFirst,
  type X402Payment,
  type X402PaymentId,
  X402PaymentsRepo
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { ApprovalViewsMemory, approvalViews, viewOrNull } from "../approvals/index.ts"
import { byThenId, MemoryStore } from "../shared/index.ts"

/** A stored payment refers to its approval, which the approvals port keeps. */
interface StoredPayment extends Omit<X402Payment, "approval"> {
  readonly approvalId: ApprovalId | null
}

/** X402PaymentsRepo over the in-memory store; writes are serialised by the store. */
export const X402PaymentsRepoMemory = Layer.effect(
  X402PaymentsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* ApprovalsRepo
    const viewOf = viewOrNull(yield* approvalViews)
    const rows = yield* store.table(HashMap.empty<X402PaymentId, StoredPayment>())
    const withApproval = ({ approvalId, ...stored }: StoredPayment) =>
      Effect.map(
        Effect.flatMap(
          approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.teamId, approvalId),
          viewOf
        ),
        (approval): X402Payment => ({ ...stored, approval })
      )
    const all = Ref.get(rows).pipe(Effect.flatMap((map) => Effect.forEach(HashMap.values(map), withApproval)))
    const update = (id: X402PaymentId, change: (row: StoredPayment) => StoredPayment | undefined) =>
      store.atomically(
        Ref.modify(rows, (map) => {
          const row = HashMap.get(map, id)
          const next = Option.isNone(row) ? undefined : change(row.value)
          if (next === undefined) return [Option.none<StoredPayment>(), map] as const
          return [Option.some(next), HashMap.set(map, id, next)] as const
        }).pipe(Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval))))
      )
    return X402PaymentsRepo.of({
      insert: ({ approval, ...p }) =>
        store.atomically(
          Ref.update(rows, (map) =>
            HashMap.set(map, p.id, {
              ...p,
              approvalId: approval === null ? null : ApprovalId.make(approval.id)
            } satisfies StoredPayment)
          )
        ),
      find: (id) =>
        Ref.get(rows).pipe(
          Effect.map(HashMap.get(id)),
          Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval)))
        ),
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((payments) =>
            payments
              .filter(
                (p) =>
                  p.teamId === teamId &&
                  (query.mode === undefined || p.mode === query.mode) &&
                  (query.status === undefined || p.status === query.status) &&
                  (query.approvalStatus === undefined || p.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || p.approval !== null) &&
                  (query.spendingKeyId === undefined || p.spendingKeyId === query.spendingKeyId) &&
                  isAfter(p, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      transition: (id, from, t) => update(id, (row) => (from.includes(row.status) ? { ...row, ...t } : undefined)),
      sign: (id, signed) =>
        update(id, (row) =>
          row.status === "signed" && row.signature === null
            ? { ...row, ...signed, updatedAt: signed.signedAt }
            : undefined
        ),
      signed: (limit) =>
        all.pipe(
          Effect.map((payments) =>
            payments
              .filter((p) => p.status === "signed" && p.authorizationExpiresAt !== null)
              .toSorted(byThenId((p) => p.authorizationExpiresAt ?? ""))
              .slice(0, limit)
          )
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((payments) =>
            payments
              .filter(
                (p) =>
                  p.status === "pending_approval" && p.approval?.status === "pending" && p.approval.expiresAt <= now
              )
              .toSorted(byThenId((p) => p.approval?.expiresAt ?? ""))
              .slice(0, limit)
          )
        )
    })
  })
).pipe(Layer.provide(ApprovalViewsMemory))

import {
  ApprovalId,
  ApprovalsRepo,
  directionOf,
  isAfter,
  newestFirst,
  type Transfer,
  type TransferId,
  TransfersRepo
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { ApprovalViewsMemory, approvalViews, viewOrNull } from "../approvals/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** A stored transfer refers to its approval, which the approvals port keeps. */
interface StoredTransfer extends Omit<Transfer, "approval"> {
  readonly approvalId: ApprovalId | null
}

/** When an open transfer is due: its acceptance deadline, or its pending approval's expiry. */
const deadlineOf = (t: Transfer): string | undefined =>
  t.status === "pending_acceptance"
    ? (t.expiresAt ?? undefined)
    : t.status === "pending_approval" && t.approval?.status === "pending"
      ? t.approval.expiresAt
      : undefined

/** TransfersRepo over the in-memory store; writes are serialised by the store. */
export const TransfersRepoMemory = Layer.effect(
  TransfersRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* ApprovalsRepo
    const viewOf = viewOrNull(yield* approvalViews)
    const rows = yield* store.table(HashMap.empty<TransferId, StoredTransfer>())
    const withApproval = ({ approvalId, ...stored }: StoredTransfer) =>
      Effect.map(
        Effect.flatMap(
          approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.senderTeamId, approvalId),
          viewOf
        ),
        (approval): Transfer => ({ ...stored, approval })
      )
    const all = Ref.get(rows).pipe(Effect.flatMap((map) => Effect.forEach(HashMap.values(map), withApproval)))
    const toStored = ({ approval, ...t }: Transfer): StoredTransfer => ({
      ...t,
      approvalId: approval === null ? null : ApprovalId.make(approval.id)
    })
    return TransfersRepo.of({
      insert: (t) => store.atomically(Ref.update(rows, HashMap.set(t.id, toStored(t)))),
      find: (id) =>
        Ref.get(rows).pipe(
          Effect.map(HashMap.get(id)),
          Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval)))
        ),
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((transfers) =>
            transfers
              .filter((t) => {
                const direction = directionOf(t, teamId)
                return (
                  direction !== undefined &&
                  (query.mode === undefined || t.mode === query.mode) &&
                  (query.direction === undefined || direction === query.direction) &&
                  (query.status === undefined || t.status === query.status) &&
                  (query.spendingKeyId === undefined || t.spendingKeyId === query.spendingKeyId) &&
                  (query.createdFrom === undefined || t.createdAt >= query.createdFrom) &&
                  (query.createdBefore === undefined || t.createdAt < query.createdBefore) &&
                  (query.approvalStatus === undefined || t.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || t.approval !== null) &&
                  isAfter(t, page.after)
                )
              })
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      transition: (id, from, transition) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const row = HashMap.get(map, id)
            if (Option.isNone(row) || !from.includes(row.value.status))
              return [Option.none<StoredTransfer>(), map] as const
            const next: StoredTransfer = { ...row.value, ...transition }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          }).pipe(Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval))))
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((transfers) =>
            transfers
              .flatMap((t) => {
                const deadline = deadlineOf(t)
                return deadline !== undefined && deadline <= now ? [{ t, deadline }] : []
              })
              .toSorted((a, b) =>
                a.deadline !== b.deadline ? (a.deadline < b.deadline ? -1 : 1) : a.t.id < b.t.id ? -1 : 1
              )
              .slice(0, limit)
              .map(({ t }) => t)
          )
        )
    })
  })
).pipe(Layer.provide(ApprovalViewsMemory))

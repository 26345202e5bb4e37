import {
  ApprovalId,
  ApprovalsRepo,
  type CryptoPayout,
  type CryptoPayoutId,
  CryptoPayoutsRepo,
  isAfter,
  newestFirst,
  type PreparedTransfer
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { ApprovalViewsMemory, approvalViews, viewOrNull } from "../approvals/index.ts"
import { byThenId, MemoryStore } from "../shared/index.ts"

/** A stored payout refers to its approval, which the approvals port keeps, and keeps the rail's signed payload. */
interface StoredPayout extends Omit<CryptoPayout, "approval"> {
  readonly approvalId: ApprovalId | null
  readonly payload: string | null
}

/** When a payout awaiting approval is due: the sooner of its quote's expiry and its pending approval's. */
const deadlineOf = (p: CryptoPayout): string | undefined => {
  if (p.status !== "pending_approval") return undefined
  const approval = p.approval?.status === "pending" ? p.approval.expiresAt : undefined
  return approval !== undefined && approval < p.quoteExpiresAt ? approval : p.quoteExpiresAt
}

/** CryptoPayoutsRepo over the in-memory store; writes are serialised by the store, so a read in one is locked. */
export const CryptoPayoutsRepoMemory = Layer.effect(
  CryptoPayoutsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* ApprovalsRepo
    const viewOf = viewOrNull(yield* approvalViews)
    const rows = yield* store.table(HashMap.empty<CryptoPayoutId, StoredPayout>())
    const withApproval = ({ approvalId, payload: _payload, ...stored }: StoredPayout) =>
      Effect.map(
        Effect.flatMap(
          approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.teamId, approvalId),
          viewOf
        ),
        (approval): CryptoPayout => ({ ...stored, approval })
      )
    const stored = Ref.get(rows).pipe(Effect.map((map) => Array.from(HashMap.values(map))))
    const all = Effect.flatMap(stored, (ps) => Effect.forEach(ps, withApproval))
    const find = (id: CryptoPayoutId) =>
      Ref.get(rows).pipe(
        Effect.map(HashMap.get(id)),
        Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval)))
      )
    const update = (id: CryptoPayoutId, change: (row: StoredPayout) => StoredPayout | undefined) =>
      store.atomically(
        Ref.modify(rows, (map) => {
          const row = HashMap.get(map, id)
          const next = Option.isNone(row) ? undefined : change(row.value)
          if (next === undefined) return [Option.none<StoredPayout>(), map] as const
          return [Option.some(next), HashMap.set(map, id, next)] as const
        }).pipe(Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval))))
      )
    return CryptoPayoutsRepo.of({
      insert: ({ approval, ...p }) =>
        store.atomically(
          Ref.update(rows, (map) =>
            HashMap.set(map, p.id, {
              ...p,
              approvalId: approval === null ? null : ApprovalId.make(approval.id),
              payload: null
            } satisfies StoredPayout)
          )
        ),
      find,
      lock: find,
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((payouts) =>
            payouts
              .filter(
                (p) =>
                  p.teamId === teamId &&
                  (query.mode === undefined || p.mode === query.mode) &&
                  (query.status === undefined || p.status === query.status) &&
                  (query.approvalStatus === undefined || p.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || p.approval !== null) &&
                  isAfter(p, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      transition: (id, from, t) => update(id, (row) => (from.includes(row.status) ? { ...row, ...t } : undefined)),
      submit: (id, prepared: PreparedTransfer, at) =>
        update(id, (row) =>
          row.status === "pending"
            ? {
                ...row,
                status: "submitted",
                txHash: prepared.txHash,
                payload: prepared.payload,
                submittedAt: at,
                updatedAt: at
              }
            : undefined
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((payouts) =>
            payouts
              .flatMap((p) => {
                const deadline = deadlineOf(p)
                return deadline !== undefined && deadline <= now ? [{ id: p.id, p, deadline }] : []
              })
              .toSorted(byThenId((d) => d.deadline))
              .slice(0, limit)
              .map(({ p }) => p)
          )
        ),
      queued: (limit) =>
        all.pipe(
          Effect.map((payouts) =>
            payouts
              .filter((p) => p.status === "pending")
              .toSorted(byThenId((p) => p.createdAt))
              .slice(0, limit)
          )
        ),
      submitted: (limit) =>
        stored.pipe(
          Effect.map((ps) =>
            ps
              .filter((p) => p.status === "submitted" && p.txHash !== null && p.payload !== null)
              .toSorted(byThenId((p) => p.submittedAt ?? ""))
              .slice(0, limit)
          ),
          Effect.flatMap((ps) =>
            Effect.forEach(ps, (row) =>
              Effect.map(withApproval(row), (payout) => ({
                payout,
                prepared: { txHash: row.txHash ?? "", payload: row.payload ?? "" }
              }))
            )
          )
        )
    })
  })
).pipe(Layer.provide(ApprovalViewsMemory))

import {
  ApprovalId,
  ApprovalsRepo,
  type CheckoutIntent,
  type CheckoutIntentId,
  CheckoutIntentsRepo,
  isAfter,
  newestFirst
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { ApprovalViewsMemory, approvalViews, viewOrNull } from "../approvals/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** A stored intent refers to its approval, which the approvals port keeps. */
interface StoredIntent extends Omit<CheckoutIntent, "approval"> {
  readonly approvalId: ApprovalId | null
}

/**
 * When an unused intent is due: an approved one at its deadline, one pending approval at the earlier of its deadline
 * and its approval's expiry.
 */
const deadlineOf = (intent: CheckoutIntent): string | undefined =>
  intent.status === "approved"
    ? intent.expiresAt
    : intent.status === "pending_approval" && intent.approval?.status === "pending"
      ? intent.approval.expiresAt < intent.expiresAt
        ? intent.approval.expiresAt
        : intent.expiresAt
      : undefined

/** CheckoutIntentsRepo over the in-memory store; transactions are serialised, so a read inside one is already locked. */
export const CheckoutIntentsRepoMemory = Layer.effect(
  CheckoutIntentsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* ApprovalsRepo
    const viewOf = viewOrNull(yield* approvalViews)
    const rows = yield* store.table(HashMap.empty<CheckoutIntentId, StoredIntent>())
    const withApproval = ({ approvalId, ...stored }: StoredIntent) =>
      Effect.map(
        Effect.flatMap(
          approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.teamId, approvalId),
          viewOf
        ),
        (approval): CheckoutIntent => ({ ...stored, approval })
      )
    const all = Ref.get(rows).pipe(Effect.flatMap((map) => Effect.forEach(HashMap.values(map), withApproval)))
    const toStored = ({ approval, ...intent }: CheckoutIntent): StoredIntent => ({
      ...intent,
      approvalId: approval === null ? null : ApprovalId.make(approval.id)
    })
    const find = (id: CheckoutIntentId) =>
      Ref.get(rows).pipe(
        Effect.map(HashMap.get(id)),
        Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval)))
      )
    return CheckoutIntentsRepo.of({
      insert: (intent) => store.atomically(Ref.update(rows, HashMap.set(intent.id, toStored(intent)))),
      find,
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((intents) =>
            intents
              .filter(
                (i) =>
                  i.teamId === teamId &&
                  (query.mode === undefined || i.mode === query.mode) &&
                  (query.status === undefined || i.status === query.status) &&
                  (query.spendingKeyId === undefined || i.spendingKeyId === query.spendingKeyId) &&
                  (query.createdFrom === undefined || i.createdAt >= query.createdFrom) &&
                  (query.createdBefore === undefined || i.createdAt < query.createdBefore) &&
                  (query.approvalStatus === undefined || i.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || i.approval !== null) &&
                  isAfter(i, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      lock: find,
      transition: (id, from, { status, authorizedAmount, capturedAmount, card, updatedAt }) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const row = HashMap.get(map, id)
            if (Option.isNone(row) || !from.includes(row.value.status)) {
              return [Option.none<StoredIntent>(), map] as const
            }
            const next: StoredIntent = {
              ...row.value,
              status,
              authorizedAmount: authorizedAmount ?? row.value.authorizedAmount,
              capturedAmount: capturedAmount === undefined ? row.value.capturedAmount : capturedAmount,
              card: card ?? row.value.card,
              updatedAt
            }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          }).pipe(Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval))))
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((intents) =>
            intents
              .flatMap((intent) => {
                const deadline = deadlineOf(intent)
                return deadline !== undefined && deadline <= now ? [{ intent, deadline }] : []
              })
              .toSorted((a, b) =>
                a.deadline !== b.deadline ? (a.deadline < b.deadline ? -1 : 1) : a.intent.id < b.intent.id ? -1 : 1
              )
              .slice(0, limit)
              .map(({ intent }) => intent)
          )
        )
    })
  })
).pipe(Layer.provide(ApprovalViewsMemory))

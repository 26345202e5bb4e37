import { type Approval, type ApprovalId, ApprovalsRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** ApprovalsRepo over the in-memory store; a decision is a compare-and-set on the pending status. */
export const ApprovalsRepoMemory = Layer.effect(
  ApprovalsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* store.table(HashMap.empty<ApprovalId, Approval>())
    return ApprovalsRepo.of({
      insert: (approval) => store.atomically(Ref.update(approvals, HashMap.set(approval.id, approval))),
      find: (teamId, id) =>
        Ref.get(approvals).pipe(
          Effect.map((map) => HashMap.get(map, id).pipe(Option.filter((a) => a.teamId === teamId)))
        ),
      decide: (teamId, id, decision) =>
        store.atomically(
          Ref.modify(approvals, (map) => {
            const current = HashMap.get(map, id)
            if (Option.isNone(current) || current.value.teamId !== teamId || current.value.status !== "pending") {
              return [Option.none<Approval>(), map] as const
            }
            const next: Approval = { ...current.value, ...decision, updatedAt: decision.decidedAt }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          })
        ),
      countPending: Ref.get(approvals).pipe(
        Effect.map((map) => HashMap.reduce(map, 0, (n, a) => (a.status === "pending" ? n + 1 : n)))
      )
    })
  })
)

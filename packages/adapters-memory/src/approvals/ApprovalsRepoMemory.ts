import { type Approval, type ApprovalId, ApprovalsRepo, type ApprovalTier, type TeamId } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** ApprovalsRepo over the in-memory store; a decision is a compare-and-set on the pending status. */
export const ApprovalsRepoMemory = Layer.effect(
  ApprovalsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const approvals = yield* store.table(HashMap.empty<ApprovalId, Approval>())
    const tiers = yield* store.table(HashMap.empty<TeamId, ReadonlyArray<ApprovalTier>>())
    const find = (teamId: TeamId, id: ApprovalId) =>
      Ref.get(approvals).pipe(Effect.map((map) => HashMap.get(map, id).pipe(Option.filter((a) => a.teamId === teamId))))
    return ApprovalsRepo.of({
      insert: (approval) => store.atomically(Ref.update(approvals, HashMap.set(approval.id, approval))),
      find,
      lockPending: (teamId, id) =>
        Effect.map(
          find(teamId, id),
          Option.filter((a) => a.status === "pending")
        ),
      insertStep: (teamId, id, step) =>
        store.atomically(
          Ref.get(approvals).pipe(
            Effect.flatMap((map) => {
              const current = HashMap.get(map, id).pipe(Option.filter((a) => a.teamId === teamId))
              if (Option.isNone(current)) return Effect.die(new Error(`no approval ${id} to record a step on`))
              if (current.value.decisions.some((d) => d.userId === step.userId)) {
                return Effect.die(new Error(`member ${step.userId} already has a step on approval ${id}`))
              }
              const next: Approval = { ...current.value, decisions: [...current.value.decisions, step] }
              return Ref.set(approvals, HashMap.set(map, id, next))
            })
          )
        ),
      tiers: (teamId) => Ref.get(tiers).pipe(Effect.map((map) => Option.getOrElse(HashMap.get(map, teamId), () => []))),
      setTiers: (teamId, next) => store.atomically(Ref.update(tiers, HashMap.set(teamId, next))),
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

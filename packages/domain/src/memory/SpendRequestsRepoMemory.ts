import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { isAfter, newestFirst } from "../Pagination.ts"
import { type SpendRequest, type SpendRequestId, SpendRequestsRepo } from "../SpendRequests.ts"
import { MemoryStore } from "./MemoryStore.ts"

/** SpendRequestsRepo over the in-memory store. */
export const SpendRequestsRepoMemory = Layer.effect(
  SpendRequestsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const requests = yield* store.table(HashMap.empty<SpendRequestId, SpendRequest>())
    const usage = yield* store.table(HashMap.empty<string, number>())
    const all = Ref.get(requests).pipe(Effect.map((map) => Array.from(HashMap.values(map))))
    return SpendRequestsRepo.of({
      insert: (sr) => store.atomically(Ref.update(requests, HashMap.set(sr.id, sr))),
      find: (teamId, id) =>
        Ref.get(requests).pipe(
          Effect.map((map) => HashMap.get(map, id).pipe(Option.filter((sr) => sr.teamId === teamId)))
        ),
      findByApprovalId: (teamId, approvalId) =>
        all.pipe(
          Effect.map((rows) =>
            Option.fromNullishOr(rows.find((sr) => sr.teamId === teamId && sr.approval?.id === approvalId))
          )
        ),
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .filter(
                (sr) =>
                  sr.teamId === teamId &&
                  (query.mode === undefined || sr.mode === query.mode) &&
                  (query.status === undefined || sr.status === query.status) &&
                  (query.approvalStatus === undefined || sr.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || sr.approval !== null) &&
                  isAfter(sr, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      usage: (keyId, windows) =>
        Ref.get(usage).pipe(
          Effect.map(
            (map) =>
              [
                Option.getOrElse(HashMap.get(map, `${keyId}|day|${windows.day}`), () => 0),
                Option.getOrElse(HashMap.get(map, `${keyId}|month|${windows.month}`), () => 0)
              ] as const
          )
        ),
      addUsage: (keyId, windows, delta) =>
        store.atomically(
          Ref.update(usage, (map) =>
            [`${keyId}|day|${windows.day}`, `${keyId}|month|${windows.month}`].reduce(
              (acc, key) => HashMap.set(acc, key, Option.getOrElse(HashMap.get(acc, key), () => 0) + delta),
              map
            )
          )
        ),
      transition: (teamId, id, transition) =>
        store.atomically(
          Ref.modify(requests, (map) => {
            const row = HashMap.get(map, id)
            if (Option.isNone(row) || row.value.teamId !== teamId || row.value.status !== "pending_approval") {
              return [Option.none<SpendRequest>(), map] as const
            }
            const next: SpendRequest = { ...row.value, ...transition, holdTransactionId: row.value.holdTransactionId }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          })
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .filter((sr) => sr.status === "pending_approval" && sr.approval !== null && sr.approval.expiresAt <= now)
              .toSorted((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
              .slice(0, limit)
          )
        )
    })
  })
)

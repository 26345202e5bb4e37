import { type InboundEvent, InboundEventStore, isAfter, newestFirst } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const position = (e: InboundEvent) => ({ createdAt: e.receivedAt, id: e.id })

/** InboundEventStore over the in-memory store; claims are atomic, so no row goes to two workers at once. */
export const InboundEventStoreMemory = Layer.effect(
  InboundEventStore,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyArray<InboundEvent>>([])
    const patch = (id: string, f: (row: InboundEvent) => InboundEvent) =>
      store.atomically(Ref.update(rows, (all) => all.map((row) => (row.id === id ? f(row) : row))))
    const fromParked = (id: string, f: (row: InboundEvent) => InboundEvent) =>
      store.atomically(
        Effect.gen(function* () {
          const row = (yield* Ref.get(rows)).find((r) => r.id === id && r.status === "parked")
          if (row === undefined) return Option.none<InboundEvent>()
          const moved = f(row)
          yield* patch(id, () => moved)
          return Option.some(moved)
        })
      )
    const lease = (leaseUntil: string) => (row: InboundEvent) => ({
      ...row,
      attempts: row.attempts + 1,
      nextAttemptAt: leaseUntil
    })
    return InboundEventStore.of({
      record: (event) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const existing = all.find(
              (r) => r.endpoint === event.endpoint && r.providerEventId === event.providerEventId
            )
            if (existing !== undefined) return { event: existing, duplicate: true }
            yield* Ref.set(rows, [...all, event])
            return { event, duplicate: false }
          })
        ),
      claimDue: ({ now, leaseUntil, limit }) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const due = all
              .filter((r) => r.status === "pending" && r.nextAttemptAt <= now)
              .toSorted((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : 0))
              .slice(0, limit)
              .map(lease(leaseUntil))
            const ids = new Map(due.map((r) => [r.id, r]))
            yield* Ref.set(
              rows,
              all.map((r) => ids.get(r.id) ?? r)
            )
            return due
          })
        ),
      claim: (id, leaseUntil) =>
        store.atomically(
          Effect.gen(function* () {
            const row = (yield* Ref.get(rows)).find((r) => r.id === id && r.status === "pending")
            if (row === undefined) return Option.none()
            const claimed = lease(leaseUntil)(row)
            yield* patch(id, () => claimed)
            return Option.some(claimed)
          })
        ),
      markProcessed: (id, at) =>
        patch(id, (row) => ({ ...row, status: "processed", processedAt: at, lastError: null })),
      markFailed: (id, error, retryAt) =>
        patch(id, (row) =>
          retryAt === null
            ? { ...row, status: "parked", lastError: error }
            : { ...row, status: "pending", lastError: error, nextAttemptAt: retryAt }
        ),
      find: (id) => Ref.get(rows).pipe(Effect.map((all) => Option.fromNullishOr(all.find((r) => r.id === id)))),
      list: (filter, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            all
              .filter(
                (r) =>
                  r.status === filter.status &&
                  (filter.teamId === undefined || r.teamId === filter.teamId) &&
                  isAfter(position(r), page.after)
              )
              .toSorted((a, b) => newestFirst(position(a), position(b)))
              .slice(0, page.limit + 1)
          )
        ),
      countParked: Ref.get(rows).pipe(Effect.map((all) => all.filter((r) => r.status === "parked").length)),
      requeueParked: (id, now) =>
        fromParked(id, (row) => ({ ...row, status: "pending", attempts: 0, nextAttemptAt: now })),
      discardParked: (id, by, at) =>
        fromParked(id, (row) => ({ ...row, status: "discarded", discardedAt: at, discardedBy: by }))
    })
  })
)

import { isAfter, NOTIFYING_EVENTS, type Notification, NotificationsRepo, newestFirst } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { EventOutboxMemory, NotifiedEvents, PublishedEvents } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** NotificationsRepo over the in-memory store, fed from the in-memory outbox's published events. */
export const NotificationsRepoMemory = Layer.effect(
  NotificationsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const published = yield* PublishedEvents
    const notified = yield* NotifiedEvents
    const rows = yield* store.table<ReadonlyArray<Notification>>([])
    const visibleTo = (reader: { readonly teamId: string; readonly userId: string }) => (n: Notification) =>
      n.teamId === reader.teamId && (n.userId === null || n.userId === reader.userId)
    return NotificationsRepo.of({
      list: (reader, filter, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            all
              .filter(visibleTo(reader))
              .filter((n) => filter.statuses === null || filter.statuses.includes(n.status))
              .filter((n) => isAfter(n, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      setStatus: (reader, id, status) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const found = all.find((n) => n.id === id && visibleTo(reader)(n))
            if (found === undefined) return [Option.none(), all] as const
            const next = { ...found, status }
            return [Option.some(next), all.map((n) => (n === found ? next : n))] as const
          })
        ),
      setStatusAll: (reader, status) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const changes = (n: Notification) => visibleTo(reader)(n) && n.status !== status
            const next = all.map((n) => (changes(n) ? { ...n, status } : n))
            return [next.filter((_, i) => changes(all[i]!)).toSorted(newestFirst), next] as const
          })
        ),
      lockUnnotifiedEvents: (limit) =>
        Effect.gen(function* () {
          const done = yield* Ref.get(notified)
          return (yield* Ref.get(published))
            .filter((e) => e.type in NOTIFYING_EVENTS && !done.has(e.id))
            .slice(0, limit)
        }),
      insert: (...notifications) =>
        store.atomically(
          Ref.update(rows, (all) => {
            const taken = new Set(all.flatMap((n) => (n.eventId === null ? [] : [n.eventId])))
            return [...all, ...notifications.filter((n) => n.eventId === null || !taken.has(n.eventId))]
          })
        ),
      markNotified: (ids) => store.atomically(Ref.update(notified, (done) => new Set([...done, ...ids])))
    })
  })
).pipe(Layer.provide(EventOutboxMemory))

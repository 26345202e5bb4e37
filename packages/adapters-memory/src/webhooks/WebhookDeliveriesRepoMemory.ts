import { isAfter, NOTIFYING_EVENTS, newestFirst, WebhookDeliveriesRepo, type WebhookDelivery } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { NotifiedEvents, PublishedEvents } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** WebhookDeliveriesRepo over the in-memory store, fed from the in-memory outbox's published events. */
export const WebhookDeliveriesRepoMemory = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const published = yield* PublishedEvents
    const notified = yield* NotifiedEvents
    const dispatched = yield* store.table<ReadonlySet<string>>(new Set())
    const rows = yield* store.table<ReadonlyArray<WebhookDelivery>>([])
    const update = (id: string, f: (d: WebhookDelivery) => WebhookDelivery) =>
      store.atomically(Ref.update(rows, (all) => all.map((d) => (d.id === id ? f(d) : d))))
    return WebhookDeliveriesRepo.of({
      lockUndispatchedEvents: (limit) =>
        Effect.gen(function* () {
          const done = yield* Ref.get(dispatched)
          return (yield* Ref.get(published)).filter((e) => !done.has(e.id)).slice(0, limit)
        }),
      markDispatched: (ids, _at) => store.atomically(Ref.update(dispatched, (done) => new Set([...done, ...ids]))),
      insert: (...deliveries) =>
        store.atomically(
          Ref.update(rows, (stored) => {
            const all = [...stored]
            for (const delivery of deliveries) {
              const firstOfPair = !all.some(
                (d) => d.redeliveryOf === null && d.endpointId === delivery.endpointId && d.eventId === delivery.eventId
              )
              if (delivery.redeliveryOf !== null || firstOfPair) all.push(delivery)
            }
            return all
          })
        ),
      claimDue: ({ now, leaseUntil, limit }) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const due = all
              .filter((d) => d.status === "pending" && d.nextAttemptAt <= now)
              .toSorted((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : 0))
              .slice(0, limit)
            const ids = new Set(due.map((d) => d.id))
            yield* Ref.set(
              rows,
              all.map((d) => (ids.has(d.id) ? { ...d, nextAttemptAt: leaseUntil } : d))
            )
            return due
          })
        ),
      recordAttempt: (id, result) => update(id, (d) => ({ ...d, ...result })),
      find: (teamId, endpointId, id) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            Option.fromNullishOr(all.find((d) => d.id === id && d.teamId === teamId && d.endpointId === endpointId))
          )
        ),
      list: (teamId, endpointId, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            all
              .filter((d) => d.teamId === teamId && d.endpointId === endpointId && isAfter(d, page.after))
              .toSorted((a, b) => newestFirst(a, b))
              .slice(0, page.limit + 1)
          )
        ),
      purgeFinishedBefore: (cutoff) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const stays = (d: WebhookDelivery) => d.status === "pending" || d.createdAt >= cutoff
            const kept = all.filter((d) => stays(d) || all.some((r) => r.redeliveryOf === d.id && stays(r)))
            return [all.length - kept.length, kept] as const
          })
        ),
      purgeDispatchedEvents: store.atomically(
        Effect.gen(function* () {
          const done = yield* Ref.get(dispatched)
          const delivered = new Set((yield* Ref.get(rows)).map((d) => d.eventId))
          const taken = yield* Ref.get(notified)
          const gone = new Set(
            (yield* Ref.get(published))
              .filter(
                (e) => done.has(e.id) && (taken.has(e.id) || !(e.type in NOTIFYING_EVENTS)) && !delivered.has(e.id)
              )
              .map((e) => e.id)
          )
          yield* Ref.update(published, (events) => events.filter((e) => !gone.has(e.id)))
          yield* Ref.set(dispatched, new Set([...done].filter((id) => !gone.has(id))))
          yield* Ref.set(notified, new Set([...taken].filter((id) => !gone.has(id))))
          return gone.size
        })
      ),
      countDue: (now) =>
        Ref.get(rows).pipe(
          Effect.map((all) => all.filter((d) => d.status === "pending" && d.nextAttemptAt <= now).length)
        )
    })
  })
)

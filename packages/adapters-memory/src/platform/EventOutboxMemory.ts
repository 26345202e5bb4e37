import { AuditLogRepo, auditContent, type DomainEvent, EventOutbox } from "@svc/domain"
import { Array as Arr, Context, Effect, Layer, Ref } from "effect"
import { AuditLogRepoMemory } from "../audit/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** The events published so far, oldest first (for tests and in-memory delivery). */
export class PublishedEvents extends Context.Service<PublishedEvents, Ref.Ref<ReadonlyArray<DomainEvent>>>()(
  "@svc/adapters-memory/PublishedEvents"
) {}

/** The ids of published events a notification pass has taken (a notifying event stays until taken and delivered). */
export class NotifiedEvents extends Context.Service<NotifiedEvents, Ref.Ref<ReadonlySet<string>>>()(
  "@svc/adapters-memory/NotifiedEvents"
) {}

/**
 * EventOutbox over the in-memory store; rolled back with the transaction that published. Each event is appended to
 * its team's audit log in the same write, as the Postgres outbox's trigger does.
 */
export const EventOutboxMemory = Layer.effectContext(
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const audit = yield* AuditLogRepo
    const events = yield* store.table<ReadonlyArray<DomainEvent>>([])
    const notified = yield* store.table<ReadonlySet<string>>(new Set())
    return Context.make(
      EventOutbox,
      EventOutbox.of({
        publish: (...published) =>
          store.atomically(
            Effect.andThen(
              Ref.update(events, (all) => [...all, ...published]),
              () => {
                const drafts = published.map((e) => ({
                  teamId: e.teamId,
                  id: e.id,
                  content: auditContent({ id: e.id, type: e.type, mode: e.mode, at: e.createdAt, data: e.data })
                }))
                return Arr.isArrayNonEmpty(drafts) ? audit.append(drafts) : Effect.void
              }
            )
          )
      })
    ).pipe(Context.add(PublishedEvents, events), Context.add(NotifiedEvents, notified))
  })
).pipe(Layer.provide(AuditLogRepoMemory))

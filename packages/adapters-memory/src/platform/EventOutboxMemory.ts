import { type DomainEvent, EventOutbox } from "@svc/domain"
import { Context, Effect, Layer, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** The events published so far, oldest first (for tests and in-memory delivery). */
export class PublishedEvents extends Context.Service<PublishedEvents, Ref.Ref<ReadonlyArray<DomainEvent>>>()(
  "@svc/adapters-memory/PublishedEvents"
) {}

/** EventOutbox over the in-memory store; rolled back with the transaction that published. */
export const EventOutboxMemory = Layer.effectContext(
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const events = yield* store.table<ReadonlyArray<DomainEvent>>([])
    return Context.make(
      EventOutbox,
      EventOutbox.of({
        publish: (...published) => store.atomically(Ref.update(events, (all) => [...all, ...published]))
      })
    ).pipe(Context.add(PublishedEvents, events))
  })
)

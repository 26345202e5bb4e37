import { type DomainEvent, EventOutbox } from "@svc/domain"
import { Array as Arr, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { orUnavailable } from "../shared/index.ts"

/** The `outbox_events` rows of events, for `sql.insert`. */
export const outboxRows = (events: ReadonlyArray<DomainEvent>) =>
  events.map(
    (event): Record<string, unknown> => ({
      id: event.id,
      team_id: event.teamId,
      mode: event.mode,
      type: event.type,
      data: JSON.stringify(event.data),
      created_at: event.createdAt
    })
  )

/** EventOutbox on Postgres: the event row commits or rolls back with the surrounding transaction. */
export const EventOutboxPg = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return EventOutbox.of({
      publish: (...events) => {
        const rows = outboxRows(events)
        return Arr.isArrayNonEmpty(rows)
          ? sql`INSERT INTO outbox_events ${sql.insert(rows)}`.pipe(Effect.asVoid, orUnavailable("outbox.publish"))
          : Effect.void
      }
    })
  })
)

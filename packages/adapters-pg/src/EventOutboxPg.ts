import { EventOutbox } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { orUnavailable } from "./Sql.ts"

/** EventOutbox on Postgres: the event row commits or rolls back with the surrounding transaction. */
export const EventOutboxPg = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return EventOutbox.of({
      publish: (event) =>
        sql`INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
            VALUES (${event.id}, ${event.teamId}, ${event.mode}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("outbox.publish")
        )
    })
  })
)

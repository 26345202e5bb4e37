import { ReceiveHandle, ReceiveHandlesRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

/** ReceiveHandlesRepo on Postgres: the handle is unique and never changes (a trigger); the name is the team's. */
export const ReceiveHandlesRepoPg = Layer.effect(
  ReceiveHandlesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const select = sql`SELECT h.team_id, t.name AS team_name, h.handle, h.created_at
                       FROM receive_handles h JOIN teams t ON t.id = h.team_id`
    return ReceiveHandlesRepo.of({
      insert: (h) =>
        sql`INSERT INTO receive_handles (team_id, handle, created_at)
            VALUES (${h.teamId}, ${h.handle}, ${h.createdAt})
            ON CONFLICT DO NOTHING
            RETURNING team_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("receiveHandles.insert")
        ),
      findByTeam: (teamId) =>
        sql`${select} WHERE h.team_id = ${teamId}`.pipe(
          orUnavailable("receiveHandles.findByTeam"),
          Effect.flatMap(decodeFirst(ReceiveHandle, "receiveHandles.findByTeam"))
        ),
      findByHandle: (handle) =>
        sql`${select} WHERE h.handle = ${handle}`.pipe(
          orUnavailable("receiveHandles.findByHandle"),
          Effect.flatMap(decodeFirst(ReceiveHandle, "receiveHandles.findByHandle"))
        )
    })
  })
)

import { BankConnection, BankConnectionsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../../shared/index.ts"

/** BankConnectionsRepo on Postgres. */
export const BankConnectionsRepoPg = Layer.effect(
  BankConnectionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return BankConnectionsRepo.of({
      insert: (c) =>
        sql`INSERT INTO bank_connections (id, team_id, provider, external_id, status, created_at, updated_at)
            VALUES (${c.id}, ${c.teamId}, ${c.provider}, ${c.externalId}, ${c.status}, ${c.createdAt}, ${c.updatedAt})`.pipe(
          Effect.asVoid,
          orUnavailable("bankConnections.insert")
        ),
      findByExternalId: (provider, externalId) =>
        sql`SELECT * FROM bank_connections WHERE provider = ${provider} AND external_id = ${externalId}`.pipe(
          orUnavailable("bankConnections.findByExternalId"),
          Effect.flatMap(decodeFirst(BankConnection, "bankConnections.findByExternalId"))
        ),
      find: (teamId, id) =>
        sql`SELECT * FROM bank_connections WHERE team_id = ${teamId} AND id = ${id}`.pipe(
          orUnavailable("bankConnections.find"),
          Effect.flatMap(decodeFirst(BankConnection, "bankConnections.find"))
        ),
      setStatus: (provider, externalId, status, at) =>
        sql`
          UPDATE bank_connections SET status = ${status}, updated_at = ${at}
          WHERE provider = ${provider} AND external_id = ${externalId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("bankConnections.setStatus")
        )
    })
  })
)

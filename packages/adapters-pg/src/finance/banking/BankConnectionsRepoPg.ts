import { type BankConnection, BankConnectionsRepo, type TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../../shared/index.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly provider: string
  readonly externalId: string
  readonly status: BankConnection["status"]
  readonly createdAt: Date
  readonly updatedAt: Date
}

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
        sql<Row>`SELECT * FROM bank_connections WHERE provider = ${provider} AND external_id = ${externalId}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullishOr(rows[0]),
              (r): BankConnection => ({
                id: r.id,
                teamId: r.teamId as TeamId,
                provider: r.provider,
                externalId: r.externalId,
                status: r.status,
                createdAt: iso(r.createdAt),
                updatedAt: iso(r.updatedAt)
              })
            )
          ),
          orUnavailable("bankConnections.findByExternalId")
        ),
      setStatus: (provider, externalId, status, at) =>
        sql<{ id: string }>`
          UPDATE bank_connections SET status = ${status}, updated_at = ${at}
          WHERE provider = ${provider} AND external_id = ${externalId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("bankConnections.setStatus")
        )
    })
  })
)

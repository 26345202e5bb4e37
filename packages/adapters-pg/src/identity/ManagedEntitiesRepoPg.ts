import { type KycStatus, ManagedEntitiesRepo, type ManagedEntity, type TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly name: string
  readonly kycStatus: KycStatus
  readonly kycProvider: string | null
  readonly kycUpdatedAt: Date | null
  readonly createdAt: Date
}

/** ManagedEntitiesRepo on Postgres. */
export const ManagedEntitiesRepoPg = Layer.effect(
  ManagedEntitiesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return ManagedEntitiesRepo.of({
      insert: (e: ManagedEntity) =>
        sql`INSERT INTO managed_entities (id, team_id, name, kyc_status, kyc_provider, kyc_updated_at, created_at)
            VALUES (${e.id}, ${e.teamId}, ${e.name}, ${e.kycStatus}, ${e.kycProvider}, ${e.kycUpdatedAt}, ${e.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("managedEntities.insert")
        ),
      find: (id) =>
        sql<Row>`SELECT * FROM managed_entities WHERE id = ${id}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullishOr(rows[0]),
              (r): ManagedEntity => ({
                id: r.id,
                teamId: r.teamId as TeamId,
                name: r.name,
                kycStatus: r.kycStatus,
                kycProvider: r.kycProvider,
                kycUpdatedAt: r.kycUpdatedAt === null ? null : iso(r.kycUpdatedAt),
                createdAt: iso(r.createdAt)
              })
            )
          ),
          orUnavailable("managedEntities.find")
        ),
      setKycStatus: (id, status, provider, at) =>
        sql<{ id: string }>`
          UPDATE managed_entities SET kyc_status = ${status}, kyc_provider = ${provider}, kyc_updated_at = ${at}
          WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("managedEntities.setKycStatus")
        )
    })
  })
)

import { ManagedEntitiesRepo, ManagedEntity } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

/** ManagedEntitiesRepo on Postgres. */
export const ManagedEntitiesRepoPg = Layer.effect(
  ManagedEntitiesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return ManagedEntitiesRepo.of({
      insert: (e) =>
        sql`INSERT INTO managed_entities (id, team_id, name, kyc_status, kyc_provider, kyc_updated_at, created_at)
            VALUES (${e.id}, ${e.teamId}, ${e.name}, ${e.kycStatus}, ${e.kycProvider}, ${e.kycUpdatedAt}, ${e.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("managedEntities.insert")
        ),
      find: (id) =>
        sql`SELECT * FROM managed_entities WHERE id = ${id}`.pipe(
          orUnavailable("managedEntities.find"),
          Effect.flatMap(decodeFirst(ManagedEntity, "managedEntities.find"))
        ),
      setKycStatus: (id, status, provider, at) =>
        sql`UPDATE managed_entities SET kyc_status = ${status}, kyc_provider = ${provider}, kyc_updated_at = ${at}
            WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("managedEntities.setKycStatus")
        )
    })
  })
)

import { Context, type Effect, type Option, Schema } from "effect"
import { TeamId } from "../shared/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"

/** Where a managed entity's identity verification stands. */
export const KycStatus = Schema.Literals(["not_started", "pending", "in_review", "approved", "rejected"])
export type KycStatus = typeof KycStatus.Type

/** A person or business a team manages, whose identity a KYC provider verifies. */
export const ManagedEntity = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  name: Schema.String,
  kycStatus: KycStatus,
  kycProvider: Schema.NullOr(Schema.String),
  kycUpdatedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type ManagedEntity = typeof ManagedEntity.Type

/** Storage of managed entities and their KYC status. */
export class ManagedEntitiesRepo extends Context.Service<
  ManagedEntitiesRepo,
  {
    readonly insert: (entity: ManagedEntity) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (id: string) => Effect.Effect<Option.Option<ManagedEntity>, PersistenceUnavailable>
    /** Sets the status reported by a provider; false when no such entity exists. */
    readonly setKycStatus: (
      id: string,
      status: KycStatus,
      provider: string,
      at: string
    ) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/ManagedEntitiesRepo") {}

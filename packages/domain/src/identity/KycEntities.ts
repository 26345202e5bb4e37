import { Context, type Effect, type Option, Schema } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/index.ts"

/** Where a managed entity's identity verification stands. */
export const KycStatus = Schema.Literals(["not_started", "pending", "in_review", "approved", "rejected"])
export type KycStatus = typeof KycStatus.Type

/** A person or business a team manages, whose identity a KYC provider verifies. */
export interface ManagedEntity {
  readonly id: string
  readonly teamId: TeamId
  readonly name: string
  readonly kycStatus: KycStatus
  readonly kycProvider: string | null
  readonly kycUpdatedAt: string | null
  readonly createdAt: string
}

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

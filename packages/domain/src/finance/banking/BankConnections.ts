import { Context, type Effect, type Option, Schema } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/index.ts"

/** Whether a bank aggregator still reaches the team's bank. */
export const BankConnectionStatus = Schema.Literals(["connected", "disconnected"])
export type BankConnectionStatus = typeof BankConnectionStatus.Type

/** A team's link to a bank through an aggregator (an item or an enrollment on the aggregator's side). */
export interface BankConnection {
  readonly id: string
  readonly teamId: TeamId
  readonly provider: string
  readonly externalId: string
  readonly status: BankConnectionStatus
  readonly createdAt: string
  readonly updatedAt: string
}

/** Storage of bank connections, found by the aggregator's own id. */
export class BankConnectionsRepo extends Context.Service<
  BankConnectionsRepo,
  {
    readonly insert: (connection: BankConnection) => Effect.Effect<void, PersistenceUnavailable>
    readonly findByExternalId: (
      provider: string,
      externalId: string
    ) => Effect.Effect<Option.Option<BankConnection>, PersistenceUnavailable>
    /** Sets the status; false when no connection has that aggregator id. */
    readonly setStatus: (
      provider: string,
      externalId: string,
      status: BankConnectionStatus,
      at: string
    ) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/BankConnectionsRepo") {}

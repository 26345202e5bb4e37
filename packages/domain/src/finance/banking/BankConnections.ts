import { Context, type Effect, type Option, Schema } from "effect"
import type { PersistenceUnavailable } from "../../shared/index.ts"
import { TeamId } from "../../shared/index.ts"

/** Whether a bank aggregator still reaches the team's bank. */
export const BankConnectionStatus = Schema.Literals(["connected", "disconnected"])
export type BankConnectionStatus = typeof BankConnectionStatus.Type

/** A team's link to a bank through an aggregator (an item or an enrollment on the aggregator's side). */
export const BankConnection = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  provider: Schema.String,
  externalId: Schema.String,
  status: BankConnectionStatus,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type BankConnection = typeof BankConnection.Type

/** Storage of bank connections, found by the aggregator's own id. */
export class BankConnectionsRepo extends Context.Service<
  BankConnectionsRepo,
  {
    readonly insert: (connection: BankConnection) => Effect.Effect<void, PersistenceUnavailable>
    readonly findByExternalId: (
      provider: string,
      externalId: string
    ) => Effect.Effect<Option.Option<BankConnection>, PersistenceUnavailable>
    /** A connection of the team by its own id. */
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<BankConnection>, PersistenceUnavailable>
    /** Sets the status; false when no connection has that aggregator id. */
    readonly setStatus: (
      provider: string,
      externalId: string,
      status: BankConnectionStatus,
      at: string
    ) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/BankConnectionsRepo") {}

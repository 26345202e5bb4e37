import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { BankConnection, BankConnectionStatus } from "./BankConnection.ts"

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
    /**
     * Marks a connected connection disconnected and answers it as it now is; none when there is no such connection
     * or it was disconnected already (a conditional update: of concurrent reports, one changes it).
     */
    readonly disconnect: (
      provider: string,
      externalId: string,
      at: string
    ) => Effect.Effect<Option.Option<BankConnection>, PersistenceUnavailable>
  }
>()("@svc/domain/BankConnectionsRepo") {}

import { Context, type Effect } from "effect"
import type { PersistenceUnavailable } from "./Persistence.ts"

/** Runs an effect atomically: every repository call inside commits together or not at all. */
export class Transactor extends Context.Service<
  Transactor,
  {
    /** Runs `self` as one transaction; inside an open one it joins it, so a failure anywhere rolls back the whole. */
    readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | PersistenceUnavailable, R>
    /**
     * Runs `self` so that when it fails none of its writes remain while the open transaction goes on (a savepoint), or
     * as a transaction of its own when none is open. For a caller that turns a failure into an outcome it commits (a
     * stored answer): a failure that leaves the transaction as a success value must not carry the failed work with it.
     */
    readonly withSavepoint: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | PersistenceUnavailable, R>
    /**
     * Runs `effect` once the transaction open in context has committed, and at once outside one: never for a
     * transaction that rolls back, and once however often the transaction ran (Postgres runs one that lost a lock
     * conflict again). For what the database cannot roll back, such as process metrics.
     */
    readonly afterCommit: (effect: Effect.Effect<void>) => Effect.Effect<void>
  }
>()("@svc/domain/Transactor") {}

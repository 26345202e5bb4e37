import { Context, type Effect } from "effect"
import type { PersistenceUnavailable } from "./Persistence.ts"

/** Runs an effect atomically: every repository call inside commits together or not at all. */
export class Transactor extends Context.Service<
  Transactor,
  {
    readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | PersistenceUnavailable, R>
  }
>()("@svc/domain/Transactor") {}

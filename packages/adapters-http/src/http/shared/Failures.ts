import { isPersistenceUnavailable, type PersistenceUnavailable } from "@svc/domain"
import { Effect } from "effect"
import { serviceUnavailable } from "../../api/shared/index.ts"

/** A store outage answers 503 (retryable), never a 500 with internals. */
export const orServiceUnavailable = <A, E, R>(self: Effect.Effect<A, E | PersistenceUnavailable, R>) =>
  Effect.catchIf(self, isPersistenceUnavailable, () => Effect.fail(serviceUnavailable())) as Effect.Effect<
    A,
    Exclude<E, PersistenceUnavailable> | ReturnType<typeof serviceUnavailable>,
    R
  >

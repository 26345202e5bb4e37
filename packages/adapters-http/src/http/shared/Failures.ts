import { isPersistenceUnavailable, type PersistenceUnavailable, type SettlementAccountMissing } from "@svc/domain"
import { Effect } from "effect"
import { conflict, serviceUnavailable } from "../../api/shared/index.ts"

/** A store outage answers 503 (retryable), never a 500 with internals. */
export const orServiceUnavailable = <A, E, R>(self: Effect.Effect<A, E | PersistenceUnavailable, R>) =>
  Effect.catchIf(self, isPersistenceUnavailable, () => Effect.fail(serviceUnavailable())) as Effect.Effect<
    A,
    Exclude<E, PersistenceUnavailable> | ReturnType<typeof serviceUnavailable>,
    R
  >

/** A team without a settlement account in a currency cannot move money out in it: 409, naming mode and currency. */
export const settlementAccountMissing = (e: SettlementAccountMissing) =>
  conflict(
    "settlement_account_missing",
    `the team has no ${e.mode} settlement account in ${e.currency}, so it cannot spend in ${e.currency}`
  )

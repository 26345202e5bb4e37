import {
  FileStoreUnavailable,
  isPersistenceUnavailable,
  type PersistenceUnavailable,
  type SettlementAccountMissing
} from "@svc/domain"
import { Effect } from "effect"
import { conflict, serviceUnavailable } from "../../api/shared/index.ts"

/** A store outage answers 503 (retryable), never a 500 with internals. */
export const orServiceUnavailable = <A, E, R>(self: Effect.Effect<A, E | PersistenceUnavailable, R>) =>
  Effect.catchIf(self, isPersistenceUnavailable, () => Effect.fail(serviceUnavailable())) as Effect.Effect<
    A,
    Exclude<E, PersistenceUnavailable> | ReturnType<typeof serviceUnavailable>,
    R
  >

/** A file store failure answers 503 `file_store_unavailable` (retryable): it is not a database outage. */
export const orFileStoreUnavailable = <A, E, R>(self: Effect.Effect<A, E | FileStoreUnavailable, R>) =>
  Effect.catchIf(
    self,
    (e): e is FileStoreUnavailable => e instanceof FileStoreUnavailable,
    () => Effect.fail(serviceUnavailable("the file store is unavailable; retry later", "file_store_unavailable"))
  ) as Effect.Effect<A, Exclude<E, FileStoreUnavailable> | ReturnType<typeof serviceUnavailable>, R>

/**
 * A failure a route answers with the contract's 500: a defect, which the error handling logs with the request id and
 * answers as `internal_error` naming that id.
 */
export const internalFailure = (failure: unknown) => Effect.die(failure)

/** A team without a settlement account in a currency cannot move money out in it: 409, naming mode and currency. */
export const settlementAccountMissing = (e: SettlementAccountMissing) =>
  conflict(
    "settlement_account_missing",
    `the team has no ${e.mode} settlement account in ${e.currency}, so it cannot spend in ${e.currency}`
  )

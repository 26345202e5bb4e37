import { Context, type Effect, type Option } from "effect"
import type { GovernedQuery, GovernedRepo } from "../governance/model.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"
import type { CryptoPayout, CryptoPayoutId, CryptoPayoutStatus, CryptoPayoutTransition } from "./Payout.ts"
import type { PreparedTransfer } from "./PayoutRail.ts"

/** Which payouts a team lists. */
export type CryptoPayoutQuery = Pick<
  GovernedQuery<CryptoPayoutStatus>,
  "mode" | "status" | "approvalStatus" | "withApproval"
>

/** A submitted payout with the signed transfer the rail broadcasts (again, after a crash). */
export interface SubmittedPayout {
  readonly payout: CryptoPayout
  readonly prepared: PreparedTransfer
}

/**
 * Storage of crypto payouts, governed subjects (`GovernedRepo`); payouts due to expire at `now` are those awaiting
 * approval whose quote or pending approval expired. The rail's signed payload is stored with the payout when it is
 * submitted and only the worker reads it back (`submitted`): it is never part of a `CryptoPayout`.
 */
export class CryptoPayoutsRepo extends Context.Service<
  CryptoPayoutsRepo,
  GovernedRepo<CryptoPayout, CryptoPayoutTransition, CryptoPayoutQuery> & {
    /** Reads the payout and locks it until the surrounding transaction ends. */
    readonly lock: (id: CryptoPayoutId) => Effect.Effect<Option.Option<CryptoPayout>, PersistenceUnavailable>
    /**
     * Marks a `pending` payout `submitted` at `at` with the rail's signed transfer (its hash shown, its payload kept for
     * the worker); none when it is no longer pending.
     */
    readonly submit: (
      id: CryptoPayoutId,
      prepared: PreparedTransfer,
      at: string
    ) => Effect.Effect<Option.Option<CryptoPayout>, PersistenceUnavailable>
    /** `pending` payouts, the worker's queue, oldest first. */
    readonly queued: (limit: number) => Effect.Effect<ReadonlyArray<CryptoPayout>, PersistenceUnavailable>
    /** `submitted` payouts with their signed transfers, to reconcile with the rail, oldest submission first. */
    readonly submitted: (limit: number) => Effect.Effect<ReadonlyArray<SubmittedPayout>, PersistenceUnavailable>
  }
>()("@svc/domain/CryptoPayoutsRepo") {}

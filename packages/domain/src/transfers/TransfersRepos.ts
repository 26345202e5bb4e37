import { Context, type Effect, type Option } from "effect"
import type { GovernedQuery, GovernedRepo } from "../governance/model.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"
import type { PaymentCode } from "./PaymentCode.ts"
import type { Transfer, TransferDirection, TransferStatus, TransferTransition } from "./Transfer.ts"

/** How a payment code was used: by which transfer, when. */
export interface PaymentCodeUse {
  readonly transferId: string
  readonly usedAt: string
}

/**
 * Storage of payment codes: at most one open transfer holds a code, a code is used at most once (by the transfer
 * holding it, or by one made before codes were held when none holds it), and a used code never changes.
 */
export class PaymentCodesRepo extends Context.Service<
  PaymentCodesRepo,
  {
    /** Stores a new code; false, storing nothing, when the code's text is taken. */
    readonly insert: (code: PaymentCode) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly find: (code: string) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
    /**
     * Reads the code and locks it until the surrounding transaction ends (`Transactor.withTransaction`), so that of
     * concurrent transfers taking one code each sees what the previous one did.
     */
    readonly findForUse: (code: string) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
    /** Lets the transfer hold the code if it is unused and free; none when it is unknown, used or held. */
    readonly reserve: (
      code: string,
      transferId: string
    ) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
    /** Frees the code if the transfer holds it; nothing otherwise. */
    readonly release: (code: string, transferId: string) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Records the code's single use by the transfer if it is unused and held by that transfer or by none; none when
     * it is unknown, used, or held by another transfer.
     */
    readonly markUsed: (
      code: string,
      use: PaymentCodeUse
    ) => Effect.Effect<Option.Option<PaymentCode>, PersistenceUnavailable>
  }
>()("@svc/domain/PaymentCodesRepo") {}

/** Which transfers a team lists: on either side, or the `direction` asked. */
export interface TransferQuery extends GovernedQuery<TransferStatus> {
  readonly direction?: TransferDirection | undefined
}

/**
 * Storage of book transfers, governed subjects (`GovernedRepo`), listed on either side (or the `direction` asked).
 * Transfers due to expire at `now`: those pending acceptance whose acceptance expired.
 */
export class TransfersRepo extends Context.Service<
  TransfersRepo,
  GovernedRepo<Transfer, TransferTransition, TransferQuery>
>()("@svc/domain/TransfersRepo") {}

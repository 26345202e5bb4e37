import { Schema } from "effect"
import { AccountId, LedgerTransactionId, Mode, TeamId } from "../shared/model.ts"

/** Why a ledger transaction exists: posted directly, a hold, or the posting or voiding of a hold. */
export const LedgerTransactionKind = Schema.Literals(["posted", "pending", "post_pending", "void_pending"])
export type LedgerTransactionKind = typeof LedgerTransactionKind.Type

/** An immutable ledger entry. */
export const LedgerEntry = Schema.Struct({
  accountId: AccountId,
  amount: Schema.Int,
  currency: Schema.String,
  pending: Schema.Boolean
})
export type LedgerEntry = typeof LedgerEntry.Type

/** An immutable ledger transaction: entries that sum to zero, a code saying why, and a reference to its cause. */
export const LedgerTransaction = Schema.Struct({
  id: LedgerTransactionId,
  teamId: TeamId,
  mode: Mode,
  kind: LedgerTransactionKind,
  code: Schema.String,
  reference: Schema.String,
  pendingId: Schema.NullOr(LedgerTransactionId),
  entries: Schema.Array(LedgerEntry),
  createdAt: Schema.String
})
export type LedgerTransaction = typeof LedgerTransaction.Type

/** Filter for listing ledger transactions. */
export interface LedgerQuery {
  readonly accountId?: AccountId | undefined
  readonly mode?: Mode | undefined
}

/** A movement between two accounts of one team. */
export interface Movement {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly code: string
  readonly reference: string
  readonly debitAccountId: AccountId
  readonly creditAccountId: AccountId
  readonly amount: number
}

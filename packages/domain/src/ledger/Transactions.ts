import { Schema } from "effect"
import type { AccountId, LedgerTransactionId, Mode, TeamId } from "../shared/index.ts"

/** Why a ledger transaction exists: posted directly, a hold, or the posting or voiding of a hold. */
export const LedgerTransactionKind = Schema.Literals(["posted", "pending", "post_pending", "void_pending"])
export type LedgerTransactionKind = typeof LedgerTransactionKind.Type

/** An immutable ledger entry. */
export interface LedgerEntry {
  readonly accountId: AccountId
  readonly amount: number
  readonly currency: string
  readonly pending: boolean
}

/** An immutable ledger transaction: entries that sum to zero, a code saying why, and a reference to its cause. */
export interface LedgerTransaction {
  readonly id: LedgerTransactionId
  readonly teamId: TeamId
  readonly mode: Mode
  readonly kind: LedgerTransactionKind
  readonly code: string
  readonly reference: string
  readonly pendingId: LedgerTransactionId | null
  readonly entries: ReadonlyArray<LedgerEntry>
  readonly createdAt: string
}

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

import { Context, type Effect, type Option } from "effect"
import type {
  AccountId,
  LedgerTransactionId,
  Mode,
  PageRequest,
  PersistenceUnavailable,
  TeamId
} from "../shared/model.ts"
import type { Account, AccountKind, AccountWithBalance, CurrencyAccountKind, LockedAccount } from "./Accounts.ts"
import type { DuplicateLedgerTransaction, HoldAlreadyResolved } from "./LedgerErrors.ts"
import type { LedgerQuery, LedgerTransaction } from "./Transactions.ts"

/** Storage of accounts and the append-only journal. Writes happen inside a Transactor transaction. */
export class LedgerRepo extends Context.Service<
  LedgerRepo,
  {
    readonly insertAccount: (
      account: Account & { readonly kind: "spend" }
    ) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * The team's one account of this kind, mode and currency: the stored one, else `account` inserted. Concurrent
     * calls for the same account all return the same single account.
     */
    readonly ensureAccount: (
      account: Account & { readonly kind: CurrencyAccountKind }
    ) => Effect.Effect<Account, PersistenceUnavailable>
    readonly findAccount: (
      teamId: TeamId,
      id: AccountId
    ) => Effect.Effect<Option.Option<AccountWithBalance>, PersistenceUnavailable>
    /** The team's oldest account of this kind, mode and currency (by creation time, then id). */
    readonly findAccountByKind: (
      teamId: TeamId,
      mode: Mode,
      kind: AccountKind,
      currency: string
    ) => Effect.Effect<Option.Option<Account>, PersistenceUnavailable>
    /** The team's accounts, oldest first (by creation time, then id). */
    readonly listAccounts: (
      teamId: TeamId,
      filter: { readonly mode?: Mode | undefined; readonly kind?: AccountKind | undefined }
    ) => Effect.Effect<ReadonlyArray<AccountWithBalance>, PersistenceUnavailable>
    /**
     * Locks the accounts in id order until the surrounding transaction ends and returns them with their entry sums, in
     * id order, each once; unknown ids are left out (planning then refuses them with AccountNotFound).
     */
    readonly lockAccounts: (
      ids: ReadonlyArray<AccountId>
    ) => Effect.Effect<ReadonlyArray<LockedAccount>, PersistenceUnavailable>
    /** Appends a transaction with its entries and moves the account sums by the same amounts. */
    readonly insertTransaction: (
      tx: LedgerTransaction
    ) => Effect.Effect<void, DuplicateLedgerTransaction | HoldAlreadyResolved | PersistenceUnavailable>
    readonly findTransaction: (
      teamId: TeamId,
      id: LedgerTransactionId
    ) => Effect.Effect<Option.Option<LedgerTransaction>, PersistenceUnavailable>
    readonly listTransactions: (
      teamId: TeamId,
      query: LedgerQuery,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<LedgerTransaction>, PersistenceUnavailable>
  }
>()("@svc/domain/LedgerRepo") {}

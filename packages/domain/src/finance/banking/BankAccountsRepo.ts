import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { BankAccount, BankAccountId, BankAccountType } from "./BankAccount.ts"

/** Which bank accounts a list answers. */
export interface BankAccountFilter {
  readonly enabled?: boolean | undefined
  readonly manual?: boolean | undefined
  readonly type?: BankAccountType | undefined
}

/** The fields of a bank account an update may change (absent: unchanged). */
export interface BankAccountChanges {
  readonly name?: string | undefined
  readonly type?: BankAccountType | undefined
  readonly balanceMinor?: number | undefined
  readonly baseCurrency?: string | null | undefined
  readonly baseBalanceMinor?: number | null | undefined
  readonly enabled?: boolean | undefined
  readonly updatedAt: string
}

/** Storage of a team's bank accounts. Scoped to the team: another team's account is not found. */
export class BankAccountsRepo extends Context.Service<
  BankAccountsRepo,
  {
    readonly insert: (account: BankAccount) => Effect.Effect<void, PersistenceUnavailable>
    /** The team's accounts, oldest first (createdAt, then id). */
    readonly list: (
      teamId: TeamId,
      filter: BankAccountFilter
    ) => Effect.Effect<ReadonlyArray<BankAccount>, PersistenceUnavailable>
    readonly find: (
      teamId: TeamId,
      id: BankAccountId
    ) => Effect.Effect<Option.Option<BankAccount>, PersistenceUnavailable>
    /** A connected account by its connection and the aggregator's account id. */
    readonly findByExternalId: (
      teamId: TeamId,
      connectionId: string,
      externalId: string
    ) => Effect.Effect<Option.Option<BankAccount>, PersistenceUnavailable>
    /** Applies the changes; the updated account, none when the team has no such account. */
    readonly update: (
      teamId: TeamId,
      id: BankAccountId,
      changes: BankAccountChanges
    ) => Effect.Effect<Option.Option<BankAccount>, PersistenceUnavailable>
    /** Deletes the account and its transactions; false when the team has no such account. */
    readonly remove: (teamId: TeamId, id: BankAccountId) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/BankAccountsRepo") {}

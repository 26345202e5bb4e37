import { Context, Effect, Layer, Option, Result, Schema } from "effect"
import type { PageRequest } from "../shared/index.ts"
import {
  AccountId,
  Currency,
  LedgerTransactionId,
  Mode,
  newId,
  type PersistenceUnavailable,
  TeamId,
  Transactor
} from "../shared/index.ts"
import {
  type Balance,
  balanceOf,
  type Counters,
  type EntryInput,
  type UnbalancedTransaction,
  validateEntries
} from "./Posting.ts"

export {
  applyEntries,
  type Balance,
  balanceOf,
  type Counters,
  type EntryInput,
  UnbalancedTransaction
} from "./Posting.ts"

/** What an account is for: `spend` holds a team's money and never goes below zero; `settlement` receives spend; `external` is the outside world's side of deposits. */
export const AccountKind = Schema.Literals(["spend", "settlement", "external"])
export type AccountKind = typeof AccountKind.Type

/** The kinds of account a team holds exactly one of per mode and currency. */
export type CurrencyAccountKind = Extract<AccountKind, "settlement" | "external">

/** A ledger account of a team, in one mode and currency. */
export const Account = Schema.Struct({
  id: AccountId,
  teamId: TeamId,
  mode: Mode,
  kind: AccountKind,
  name: Schema.String,
  currency: Currency,
  createdAt: Schema.String
})
export type Account = typeof Account.Type

/** An account with its balance. */
export interface AccountWithBalance extends Account {
  readonly balance: Balance
}

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

/** An account and the sums of its entries, read under a lock inside a transaction. */
export interface LockedAccount {
  readonly account: Account
  readonly counters: Counters
}

/** The account does not exist in this team. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  accountId: Schema.String
}) {}

/** The spend account's available balance does not cover the debit. */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  accountId: Schema.String,
  available: Schema.Number,
  amount: Schema.Number
}) {}

/** A transaction with the same code, reference and kind was already recorded. */
export class DuplicateLedgerTransaction extends Schema.TaggedError<DuplicateLedgerTransaction>()(
  "DuplicateLedgerTransaction",
  { code: Schema.String, reference: Schema.String }
) {}

/** The hold does not exist in this team. */
export class HoldNotFound extends Schema.TaggedError<HoldNotFound>()("HoldNotFound", { holdId: Schema.String }) {}

/** The hold was already posted or voided; it resolves exactly once. */
export class HoldAlreadyResolved extends Schema.TaggedError<HoldAlreadyResolved>()("HoldAlreadyResolved", {
  holdId: Schema.String
}) {}

/** Filter for listing ledger transactions. */
export interface LedgerQuery {
  readonly accountId?: AccountId | undefined
  readonly mode?: Mode | undefined
}

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
    readonly findAccountByKind: (
      teamId: TeamId,
      mode: Mode,
      kind: AccountKind,
      currency: string
    ) => Effect.Effect<Option.Option<Account>, PersistenceUnavailable>
    readonly listAccounts: (
      teamId: TeamId,
      filter: { readonly mode?: Mode | undefined; readonly kind?: AccountKind | undefined }
    ) => Effect.Effect<ReadonlyArray<AccountWithBalance>, PersistenceUnavailable>
    /** Locks the accounts (in id order) until the surrounding transaction ends and returns their entry sums. */
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

/**
 * The spend account a credential acts on among a team's accounts of one mode, listed oldest first: the account
 * `accountId`, or the first spend account when the credential names none.
 */
export const pickSpendAccount = <A extends Account>(
  accounts: ReadonlyArray<A>,
  accountId: AccountId | null
): A | undefined => accounts.find((a) => a.kind === "spend" && (accountId === null || a.id === accountId))

/** An entry to record: a signed amount on an account, posted or pending. */
export interface PlannedEntry extends EntryInput {
  readonly pending: boolean
}

/**
 * What a movement records: a transaction posted at once, or a hold (`pending`), in which the debit account gives the
 * amount and the credit account receives it. Id and time are the recorder's.
 */
export const movementPosting = (
  movement: Movement,
  pending: boolean
): {
  readonly base: Omit<LedgerTransaction, "id" | "entries" | "createdAt">
  readonly entries: ReadonlyArray<PlannedEntry>
} => ({
  base: {
    teamId: movement.teamId,
    mode: movement.mode,
    kind: pending ? "pending" : "posted",
    code: movement.code,
    reference: movement.reference,
    pendingId: null
  },
  entries: [
    { accountId: movement.debitAccountId, amount: -movement.amount, pending },
    { accountId: movement.creditAccountId, amount: movement.amount, pending }
  ]
})

/**
 * The ledger transaction that records `entries` over accounts read under their locks: every account belongs to the
 * transaction's team and mode, posted and pending entries each balance in one currency, and, when `checkFunds` is set,
 * no spend account's available balance goes below zero. Pure: the caller appends the result.
 */
export const planTransaction = (
  header: Omit<LedgerTransaction, "entries">,
  entries: ReadonlyArray<PlannedEntry>,
  options: { readonly locked: ReadonlyArray<LockedAccount>; readonly checkFunds: boolean }
): Result.Result<LedgerTransaction, UnbalancedTransaction | AccountNotFound | InsufficientFunds> => {
  const byId = new Map(options.locked.map((l) => [l.account.id as string, l]))
  for (const entry of entries) {
    const owner = byId.get(entry.accountId)
    if (owner === undefined || owner.account.teamId !== header.teamId || owner.account.mode !== header.mode) {
      return Result.fail(new AccountNotFound({ accountId: entry.accountId }))
    }
  }
  const currencyOf = (id: AccountId) => byId.get(id)?.account.currency
  let currency = ""
  for (const group of [entries.filter((e) => e.pending), entries.filter((e) => !e.pending)]) {
    if (group.length === 0) continue
    const checked = validateEntries(group, currencyOf)
    if (Result.isFailure(checked)) return Result.fail(checked.failure)
    currency = checked.success
  }
  if (options.checkFunds) {
    for (const entry of entries) {
      const owner = byId.get(entry.accountId)
      if (owner === undefined || entry.amount >= 0 || owner.account.kind !== "spend") continue
      const available = balanceOf(owner.counters).available
      if (available + entry.amount < 0) {
        return Result.fail(new InsufficientFunds({ accountId: entry.accountId, available, amount: -entry.amount }))
      }
    }
  }
  return Result.succeed({
    ...header,
    entries: entries.map((e) => ({ accountId: e.accountId, amount: e.amount, currency, pending: e.pending }))
  })
}

type PostingError = UnbalancedTransaction | AccountNotFound | InsufficientFunds | DuplicateLedgerTransaction

/** The double-entry ledger: every movement is balanced, append-only, and checked against available funds when reserved. */
export class Ledger extends Context.Service<
  Ledger,
  {
    /** Opens a spend account, and the team's settlement and external accounts for that mode and currency if missing. */
    readonly openTeamAccounts: (input: {
      readonly teamId: TeamId
      readonly mode: Mode
      readonly name: string
      readonly currency: string
    }) => Effect.Effect<Account, PersistenceUnavailable>
    /** Posts a movement at once. */
    readonly transfer: (movement: Movement) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
    /** Reserves the amount on the debit account (lowering available) without posting it. */
    readonly hold: (movement: Movement) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
    /** Posts a hold's amount, exactly once. */
    readonly postHold: (
      teamId: TeamId,
      holdId: LedgerTransactionId
    ) => Effect.Effect<LedgerTransaction, HoldNotFound | HoldAlreadyResolved | PersistenceUnavailable>
    /** Releases a hold, exactly once. */
    readonly voidHold: (
      teamId: TeamId,
      holdId: LedgerTransactionId
    ) => Effect.Effect<LedgerTransaction, HoldNotFound | HoldAlreadyResolved | PersistenceUnavailable>
    /** Credits a team's spend account from the outside world (a deposit), once per reference. */
    readonly deposit: (input: {
      readonly teamId: TeamId
      readonly mode: Mode
      readonly accountId: AccountId
      readonly amount: number
      readonly currency: string
      readonly reference: string
    }) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
    readonly account: (
      teamId: TeamId,
      id: AccountId
    ) => Effect.Effect<AccountWithBalance, AccountNotFound | PersistenceUnavailable>
    readonly accounts: LedgerRepo["Service"]["listAccounts"]
    /** The spend account a credential acts on: `accountId`, or the mode's first spend account when null. */
    readonly spendAccount: (
      teamId: TeamId,
      mode: Mode,
      accountId: AccountId | null
    ) => Effect.Effect<AccountWithBalance, AccountNotFound | PersistenceUnavailable>
    readonly settlementAccount: (
      teamId: TeamId,
      mode: Mode,
      currency: string
    ) => Effect.Effect<Account, AccountNotFound | PersistenceUnavailable>
    readonly transactions: LedgerRepo["Service"]["listTransactions"]
  }
>()("@svc/domain/Ledger") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* LedgerRepo
    const transactor = yield* Transactor

    const ensureAccount = (teamId: TeamId, mode: Mode, kind: CurrencyAccountKind, currency: string, name: string) =>
      repo.ensureAccount({
        id: newId(AccountId),
        teamId,
        mode,
        kind,
        name,
        currency,
        createdAt: new Date().toISOString()
      })

    const openTeamAccounts = Effect.fn("Ledger.openTeamAccounts")(function* (input: {
      readonly teamId: TeamId
      readonly mode: Mode
      readonly name: string
      readonly currency: string
    }) {
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          yield* ensureAccount(input.teamId, input.mode, "settlement", input.currency, `Settlement ${input.currency}`)
          yield* ensureAccount(input.teamId, input.mode, "external", input.currency, `External ${input.currency}`)
          const spend: Account & { readonly kind: "spend" } = {
            id: newId(AccountId),
            teamId: input.teamId,
            mode: input.mode,
            kind: "spend",
            name: input.name,
            currency: input.currency,
            createdAt: new Date().toISOString()
          }
          yield* repo.insertAccount(spend)
          return spend
        })
      )
    })

    const record = (
      base: Omit<LedgerTransaction, "id" | "entries" | "createdAt">,
      entries: ReadonlyArray<PlannedEntry>,
      checkFunds: boolean
    ) =>
      Effect.gen(function* () {
        const locked = yield* repo.lockAccounts([...new Set(entries.map((e) => e.accountId))])
        const tx = yield* Effect.fromResult(
          planTransaction({ ...base, id: newId(LedgerTransactionId), createdAt: new Date().toISOString() }, entries, {
            locked,
            checkFunds
          })
        )
        yield* repo.insertTransaction(tx)
        return tx
      })

    const move = (movement: Movement, pending: boolean) => {
      const { base, entries } = movementPosting(movement, pending)
      return transactor
        .withTransaction(record(base, entries, true))
        .pipe(Effect.catchTag("HoldAlreadyResolved", Effect.die))
    }

    const resolve = (teamId: TeamId, holdId: LedgerTransactionId, outcome: "post_pending" | "void_pending") =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const hold = yield* repo.findTransaction(teamId, holdId)
            if (Option.isNone(hold) || hold.value.kind !== "pending") return yield* new HoldNotFound({ holdId })
            const reversal = hold.value.entries.map((e) => ({
              accountId: e.accountId,
              amount: -e.amount,
              pending: true
            }))
            const posting =
              outcome === "post_pending"
                ? hold.value.entries.map((e) => ({ accountId: e.accountId, amount: e.amount, pending: false }))
                : []
            return yield* record(
              {
                teamId,
                mode: hold.value.mode,
                kind: outcome,
                code: hold.value.code,
                reference: hold.value.reference,
                pendingId: holdId
              },
              [...reversal, ...posting],
              false
            )
          })
        )
        .pipe(
          Effect.catchTags({
            DuplicateLedgerTransaction: () => Effect.fail(new HoldAlreadyResolved({ holdId })),
            UnbalancedTransaction: Effect.die,
            AccountNotFound: Effect.die,
            InsufficientFunds: Effect.die
          })
        )

    const account = Effect.fn("Ledger.account")(function* (teamId: TeamId, id: AccountId) {
      const found = yield* repo.findAccount(teamId, id)
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new AccountNotFound({ accountId: id })),
        onSome: Effect.succeed
      })
    })

    const spendAccount = Effect.fn("Ledger.spendAccount")(function* (
      teamId: TeamId,
      mode: Mode,
      accountId: AccountId | null
    ) {
      const found = pickSpendAccount(yield* repo.listAccounts(teamId, { mode, kind: "spend" }), accountId)
      if (found === undefined) return yield* new AccountNotFound({ accountId: accountId ?? `spend:${mode}` })
      return found
    })

    const settlementAccount = Effect.fn("Ledger.settlementAccount")(function* (
      teamId: TeamId,
      mode: Mode,
      currency: string
    ) {
      const found = yield* repo.findAccountByKind(teamId, mode, "settlement", currency)
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new AccountNotFound({ accountId: `settlement:${currency}` })),
        onSome: Effect.succeed
      })
    })

    const deposit = Effect.fn("Ledger.deposit")(function* (input: {
      readonly teamId: TeamId
      readonly mode: Mode
      readonly accountId: AccountId
      readonly amount: number
      readonly currency: string
      readonly reference: string
    }) {
      const external = yield* transactor.withTransaction(
        ensureAccount(input.teamId, input.mode, "external", input.currency, `External ${input.currency}`)
      )
      return yield* move(
        {
          teamId: input.teamId,
          mode: input.mode,
          code: "deposit",
          reference: input.reference,
          debitAccountId: external.id,
          creditAccountId: input.accountId,
          amount: input.amount
        },
        false
      )
    })

    return Ledger.of({
      openTeamAccounts,
      transfer: Effect.fn("Ledger.transfer")((movement: Movement) => move(movement, false)),
      hold: Effect.fn("Ledger.hold")((movement: Movement) => move(movement, true)),
      postHold: Effect.fn("Ledger.postHold")((teamId: TeamId, holdId: LedgerTransactionId) =>
        resolve(teamId, holdId, "post_pending")
      ),
      voidHold: Effect.fn("Ledger.voidHold")((teamId: TeamId, holdId: LedgerTransactionId) =>
        resolve(teamId, holdId, "void_pending")
      ),
      deposit,
      account,
      accounts: repo.listAccounts,
      spendAccount,
      settlementAccount,
      transactions: repo.listTransactions
    })
  })
  static readonly layer = Layer.effect(Ledger, Ledger.make)
}

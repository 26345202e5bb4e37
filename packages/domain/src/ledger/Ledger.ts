import { Context, Effect, Layer, Option } from "effect"
import {
  AccountId,
  LedgerTransactionId,
  type Mode,
  newId,
  nowIso,
  type PersistenceUnavailable,
  type TeamId,
  Transactor
} from "../shared/index.ts"
import { type Account, type AccountWithBalance, type CurrencyAccountKind, pickSpendAccount } from "./Accounts.ts"
import {
  AccountNotFound,
  type DuplicateLedgerTransaction,
  HoldAlreadyResolved,
  HoldNotFound,
  type InsufficientFunds,
  NoSpendAccount,
  SettlementAccountMissing
} from "./LedgerErrors.ts"
import { LedgerRepo } from "./LedgerRepo.ts"
import { heldAmountOf, movementPosting, type PlannedEntry, planTransaction, resolutionPosting } from "./Planning.ts"
import type { UnbalancedTransaction } from "./Posting.ts"
import type { LedgerTransaction, Movement } from "./Transactions.ts"

/** What opening a team's spend account takes. */
export interface OpenTeamAccounts {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly name: string
  readonly currency: string
}

/** A deposit from the outside world into a team's spend account. */
export interface Deposit {
  /** `deposit` (the default) for money paid in; `transfer` for a book transfer from another team (ADR 0014). */
  readonly code?: "deposit" | "transfer" | undefined
  readonly teamId: TeamId
  readonly mode: Mode
  readonly accountId: AccountId
  readonly amount: number
  readonly currency: string
  readonly reference: string
}

type PostingError = UnbalancedTransaction | AccountNotFound | InsufficientFunds | DuplicateLedgerTransaction

/** The double-entry ledger: every movement is balanced, append-only, and checked against available funds when reserved. */
export class Ledger extends Context.Service<
  Ledger,
  {
    /** Opens a spend account, and the team's settlement and external accounts for that mode and currency if missing. */
    readonly openTeamAccounts: (input: OpenTeamAccounts) => Effect.Effect<Account, PersistenceUnavailable>
    /** Posts a movement at once. */
    readonly transfer: (movement: Movement) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
    /** Reserves the amount on the debit account (lowering available) without posting it. */
    readonly hold: (movement: Movement) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
    /**
     * Posts a hold, exactly once: its whole amount, or `amount` of it with the rest released in the same transaction.
     * An `amount` outside 1 to the hold's amount is a defect: callers check it against what they hold.
     */
    readonly postHold: (
      teamId: TeamId,
      holdId: LedgerTransactionId,
      amount?: number
    ) => Effect.Effect<LedgerTransaction, HoldNotFound | HoldAlreadyResolved | PersistenceUnavailable>
    /** Releases a hold, exactly once. */
    readonly voidHold: (
      teamId: TeamId,
      holdId: LedgerTransactionId
    ) => Effect.Effect<LedgerTransaction, HoldNotFound | HoldAlreadyResolved | PersistenceUnavailable>
    /** Credits a team's spend account from the outside world (a deposit), once per reference. */
    readonly deposit: (input: Deposit) => Effect.Effect<LedgerTransaction, PostingError | PersistenceUnavailable>
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
    ) => Effect.Effect<AccountWithBalance, AccountNotFound | NoSpendAccount | PersistenceUnavailable>
    readonly settlementAccount: (
      teamId: TeamId,
      mode: Mode,
      currency: string
    ) => Effect.Effect<Account, SettlementAccountMissing | PersistenceUnavailable>
    readonly transactions: LedgerRepo["Service"]["listTransactions"]
  }
>()("@svc/domain/Ledger") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* LedgerRepo
    const transactor = yield* Transactor

    const ensureAccount = (teamId: TeamId, mode: Mode, kind: CurrencyAccountKind, currency: string, name: string) =>
      Effect.gen(function* () {
        return yield* repo.ensureAccount({
          id: yield* newId(AccountId),
          teamId,
          mode,
          kind,
          name,
          currency,
          createdAt: yield* nowIso
        })
      })

    const openTeamAccounts = Effect.fn("Ledger.openTeamAccounts")(function* (input: OpenTeamAccounts) {
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          yield* ensureAccount(input.teamId, input.mode, "settlement", input.currency, `Settlement ${input.currency}`)
          yield* ensureAccount(input.teamId, input.mode, "external", input.currency, `External ${input.currency}`)
          const spend: Account & { readonly kind: "spend" } = {
            id: yield* newId(AccountId),
            teamId: input.teamId,
            mode: input.mode,
            kind: "spend",
            name: input.name,
            currency: input.currency,
            createdAt: yield* nowIso
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
          planTransaction({ ...base, id: yield* newId(LedgerTransactionId), createdAt: yield* nowIso }, entries, {
            locked,
            checkFunds
          })
        )
        yield* repo.insertTransaction(tx)
        return tx
      })

    const move = (movement: Movement, pending: boolean) => {
      const { base, entries } = movementPosting(movement, pending)
      return transactor.withTransaction(record(base, entries, true)).pipe(
        // Only a hold's resolution (a transaction with a pendingId) can be refused as already resolved; a movement has none.
        Effect.catchTag("HoldAlreadyResolved", Effect.die)
      )
    }

    const resolve = (
      teamId: TeamId,
      holdId: LedgerTransactionId,
      outcome: "post_pending" | "void_pending",
      amount?: number
    ) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const hold = yield* repo.findTransaction(teamId, holdId)
            if (Option.isNone(hold) || hold.value.kind !== "pending") return yield* new HoldNotFound({ holdId })
            if (
              amount !== undefined &&
              !(Number.isSafeInteger(amount) && amount > 0 && amount <= heldAmountOf(hold.value))
            ) {
              return yield* Effect.die(new Error(`cannot post ${amount} of hold ${holdId}`))
            }
            const { base, entries } = resolutionPosting(hold.value, outcome, amount)
            return yield* record(base, entries, false)
          })
        )
        .pipe(
          Effect.catchTags({
            DuplicateLedgerTransaction: () => Effect.fail(new HoldAlreadyResolved({ holdId })),
            // The entries mirror a recorded, balanced hold on accounts of its own team and mode, and funds are not checked.
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
      if (found !== undefined) return found
      return yield* accountId === null ? new NoSpendAccount({ teamId, mode }) : new AccountNotFound({ accountId })
    })

    const settlementAccount = Effect.fn("Ledger.settlementAccount")(function* (
      teamId: TeamId,
      mode: Mode,
      currency: string
    ) {
      const found = yield* repo.findAccountByKind(teamId, mode, "settlement", currency)
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new SettlementAccountMissing({ teamId, mode, currency })),
        onSome: Effect.succeed
      })
    })

    const deposit = Effect.fn("Ledger.deposit")(function* (input: Deposit) {
      const external = yield* transactor.withTransaction(
        ensureAccount(input.teamId, input.mode, "external", input.currency, `External ${input.currency}`)
      )
      return yield* move(
        {
          teamId: input.teamId,
          mode: input.mode,
          code: input.code ?? "deposit",
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
      postHold: Effect.fn("Ledger.postHold")((teamId: TeamId, holdId: LedgerTransactionId, amount?: number) =>
        resolve(teamId, holdId, "post_pending", amount)
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

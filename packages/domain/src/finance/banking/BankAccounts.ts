import { Clock, Context, Effect, Layer, Option, Result } from "effect"
import { TeamsRepo } from "../../identity/index.ts"
import { isoOfMillis, newId, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { convertMinor, ExchangeRates, type InvalidAmount, parseMajor } from "../money/index.ts"
import { type BankAccount, BankAccountId, type BankAccountType } from "./BankAccount.ts"
import { BankAccountConnected, BankAccountNotFound } from "./BankAccountErrors.ts"
import { type BankAccountChanges, type BankAccountFilter, BankAccountsRepo } from "./BankAccountsRepo.ts"

/** Input to open a manual bank account; amounts in major units of their currency. */
export interface CreateBankAccount {
  readonly name: string
  readonly type?: BankAccountType | undefined
  readonly currency: string
  readonly balance?: number | undefined
  /** The balance in the team's base currency; converted at the team's rates when absent. */
  readonly baseBalance?: number | null | undefined
  readonly enabled?: boolean | undefined
}

/** Changes to a bank account (absent: unchanged); amounts in major units. */
export interface UpdateBankAccount {
  readonly name?: string | undefined
  readonly type?: BankAccountType | undefined
  readonly balance?: number | undefined
  readonly baseBalance?: number | null | undefined
  readonly enabled?: boolean | undefined
}

type Failure = PersistenceUnavailable

const parsed = (value: number, currency: string, field: string) => {
  const result = parseMajor(value, currency, field)
  return Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(result.failure)
}

/** A team's bank accounts: manual ones kept by hand, connected ones fed by their bank. */
export class BankAccounts extends Context.Service<
  BankAccounts,
  {
    readonly list: (teamId: TeamId, filter: BankAccountFilter) => Effect.Effect<ReadonlyArray<BankAccount>, Failure>
    readonly get: (teamId: TeamId, id: BankAccountId) => Effect.Effect<BankAccount, BankAccountNotFound | Failure>
    /**
     * Opens a manual account. Its base balance is the balance itself in the team's base currency, else the one given,
     * else the balance converted at the team's rate of today (none without a rate).
     */
    readonly create: (teamId: TeamId, input: CreateBankAccount) => Effect.Effect<BankAccount, InvalidAmount | Failure>
    /** Changes an account; a new balance recomputes the base balance as `create` does. */
    readonly update: (
      teamId: TeamId,
      id: BankAccountId,
      changes: UpdateBankAccount
    ) => Effect.Effect<BankAccount, BankAccountNotFound | BankAccountConnected | InvalidAmount | Failure>
    /** Deletes the account and its transactions. */
    readonly remove: (teamId: TeamId, id: BankAccountId) => Effect.Effect<BankAccount, BankAccountNotFound | Failure>
    /** Every id must be a bank account of the team; the first that is not fails, naming `field`. */
    readonly requireAll: (
      teamId: TeamId,
      ids: ReadonlyArray<BankAccountId>,
      field: string
    ) => Effect.Effect<ReadonlyArray<BankAccount>, BankAccountNotFound | Failure>
  }
>()("@svc/domain/BankAccounts") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* BankAccountsRepo
    const teams = yield* TeamsRepo
    const rates = yield* ExchangeRates

    const get = Effect.fn("BankAccounts.get")(function* (teamId: TeamId, id: BankAccountId) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new BankAccountNotFound({ bankAccountId: id, field: null })
      return found.value
    })

    /** The base currency and base balance of a balance, as `create` documents. */
    const baseOf = Effect.fn("BankAccounts.base")(function* (
      teamId: TeamId,
      currency: string,
      balanceMinor: number,
      baseBalance: number | null | undefined
    ) {
      const team = yield* teams.findById(teamId)
      // the principal's team exists: credentials resolve only for teams, and teams are never deleted
      if (Option.isNone(team)) return yield* Effect.die("the team of a bank account does not exist")
      const baseCurrency = team.value.baseCurrency
      if (currency === baseCurrency) return { baseCurrency, baseBalanceMinor: balanceMinor }
      if (baseBalance !== undefined && baseBalance !== null) {
        return { baseCurrency, baseBalanceMinor: yield* parsed(baseBalance, baseCurrency, "baseBalance") }
      }
      const today = isoOfMillis(yield* Clock.currentTimeMillis).slice(0, 10)
      const rate = yield* rates.rateOn(teamId, currency, baseCurrency, today)
      const converted = Option.flatMap(rate, (r) => convertMinor(balanceMinor, currency, baseCurrency, r))
      return { baseCurrency, baseBalanceMinor: Option.getOrNull(converted) }
    })

    const create = Effect.fn("BankAccounts.create")(function* (teamId: TeamId, input: CreateBankAccount) {
      const balanceMinor = input.balance === undefined ? 0 : yield* parsed(input.balance, input.currency, "balance")
      const base = yield* baseOf(teamId, input.currency, balanceMinor, input.baseBalance)
      const at = isoOfMillis(yield* Clock.currentTimeMillis)
      const account: BankAccount = {
        id: yield* newId(BankAccountId),
        teamId,
        name: input.name,
        type: input.type ?? "depository",
        currency: input.currency,
        balanceMinor,
        baseCurrency: base.baseCurrency,
        baseBalanceMinor: base.baseBalanceMinor,
        enabled: input.enabled ?? true,
        manual: true,
        connectionId: null,
        externalId: null,
        createdAt: at,
        updatedAt: at
      }
      yield* repo.insert(account)
      return account
    })

    const update = Effect.fn("BankAccounts.update")(function* (
      teamId: TeamId,
      id: BankAccountId,
      changes: UpdateBankAccount
    ) {
      const current = yield* get(teamId, id)
      const balanceChanged = changes.balance !== undefined || changes.baseBalance !== undefined
      if (balanceChanged && !current.manual) return yield* new BankAccountConnected({ bankAccountId: id })
      const balanceMinor =
        changes.balance === undefined
          ? current.balanceMinor
          : yield* parsed(changes.balance, current.currency, "balance")
      const base = balanceChanged ? yield* baseOf(teamId, current.currency, balanceMinor, changes.baseBalance) : null
      const update: BankAccountChanges = {
        name: changes.name,
        type: changes.type,
        enabled: changes.enabled,
        ...(base === null ? {} : { balanceMinor, ...base }),
        updatedAt: isoOfMillis(yield* Clock.currentTimeMillis)
      }
      const updated = yield* repo.update(teamId, id, update)
      if (Option.isNone(updated)) return yield* new BankAccountNotFound({ bankAccountId: id, field: null })
      return updated.value
    })

    const remove = Effect.fn("BankAccounts.remove")(function* (teamId: TeamId, id: BankAccountId) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.remove(teamId, id))) return yield* new BankAccountNotFound({ bankAccountId: id, field: null })
      return current
    })

    const requireAll = Effect.fn("BankAccounts.requireAll")(function* (
      teamId: TeamId,
      ids: ReadonlyArray<BankAccountId>,
      field: string
    ) {
      const found: Array<BankAccount> = []
      for (const id of new Set(ids)) {
        const account = yield* repo.find(teamId, id)
        if (Option.isNone(account)) return yield* new BankAccountNotFound({ bankAccountId: id, field })
        found.push(account.value)
      }
      return found
    })

    return BankAccounts.of({ list: repo.list, get, create, update, remove, requireAll })
  })
  static readonly layer = Layer.effect(BankAccounts, BankAccounts.make)
}

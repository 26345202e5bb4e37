import {
  type BankAccount,
  BankAccountId,
  BankAccountsRepo,
  type Transaction,
  TransactionId,
  TransactionsRepo
} from "@svc/domain"
import { Context, Effect, Layer } from "effect"

const AT = "2025-01-01T00:00:00.000Z"

/** How a contract writes the rows the reports read: through the ports, on every adapter. */
export class ReportSeed extends Context.Service<
  ReportSeed,
  {
    readonly transactions: (rows: ReadonlyArray<Transaction>) => Effect.Effect<void>
    readonly bankAccounts: (rows: ReadonlyArray<BankAccount>) => Effect.Effect<void>
  }
>()("@svc/tests/ReportSeed") {}

/** Seeds through the TransactionsRepo and BankAccountsRepo ports. */
export const ReportSeedPorts = Layer.effect(
  ReportSeed,
  Effect.gen(function* () {
    const transactions = yield* TransactionsRepo
    const accounts = yield* BankAccountsRepo
    return ReportSeed.of({
      transactions: (rows) =>
        transactions.insert(rows.map((transaction) => ({ transaction, tagIds: [] }))).pipe(Effect.orDie),
      bankAccounts: (rows) => Effect.forEach(rows, (row) => accounts.insert(row), { discard: true }).pipe(Effect.orDie)
    })
  })
)

/** A manual USD transaction of a team on a day; `overrides` set the rest. */
export const transaction = (
  teamId: Transaction["teamId"],
  date: string,
  amountMinor: number,
  overrides: Partial<Transaction> = {}
): Transaction => ({
  id: TransactionId.make(crypto.randomUUID()),
  teamId,
  date,
  name: "transaction",
  description: null,
  amountMinor,
  currency: "USD",
  baseAmountMinor: null,
  baseCurrency: null,
  status: "posted",
  internal: false,
  recurring: false,
  frequency: null,
  manual: true,
  note: null,
  categoryId: null,
  bankAccountId: null,
  taxRate: null,
  taxType: null,
  counterpartyName: null,
  provider: null,
  providerTransactionId: null,
  createdAt: AT,
  updatedAt: AT,
  ...overrides
})

/** A manual bank account of a team; `overrides` set the rest. */
export const bankAccount = (
  teamId: BankAccount["teamId"],
  type: BankAccount["type"],
  currency: string,
  balanceMinor: number,
  overrides: Partial<BankAccount> = {}
): BankAccount => ({
  id: BankAccountId.make(crypto.randomUUID()),
  teamId,
  name: `${type} ${currency}`,
  type,
  currency,
  balanceMinor,
  baseCurrency: null,
  baseBalanceMinor: null,
  enabled: true,
  manual: true,
  connectionId: null,
  externalId: null,
  createdAt: AT,
  updatedAt: AT,
  ...overrides
})

import {
  type BankAccount,
  BankAccountId,
  BankAccountsRepo,
  type Transaction,
  TransactionId,
  TransactionsRepo
} from "@svc/domain"
import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

const AT = "2025-01-01T00:00:00.000Z"

/** How a contract writes the rows the reports read (through the ports on memory, by SQL on Postgres). */
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

/** Seeds by SQL, as the bench does (the Postgres repositories of transactions and accounts are another part's). */
export const ReportSeedSql = Layer.effect(
  ReportSeed,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return ReportSeed.of({
      transactions: (rows) =>
        !Arr.isReadonlyArrayNonEmpty(rows)
          ? Effect.void
          : sql`INSERT INTO transactions ${sql.insert(
              Arr.map(
                rows,
                (t): Record<string, unknown> => ({
                  id: t.id,
                  team_id: t.teamId,
                  date: t.date,
                  name: t.name,
                  description: t.description,
                  amount_minor: t.amountMinor,
                  currency: t.currency,
                  base_amount_minor: t.baseAmountMinor,
                  base_currency: t.baseCurrency,
                  status: t.status,
                  internal: t.internal,
                  recurring: t.recurring,
                  frequency: t.frequency,
                  manual: t.manual,
                  note: t.note,
                  category_id: t.categoryId,
                  bank_account_id: t.bankAccountId,
                  tax_rate: t.taxRate,
                  tax_type: t.taxType,
                  counterparty_name: t.counterpartyName,
                  provider: t.provider,
                  provider_transaction_id: t.providerTransactionId,
                  created_at: t.createdAt,
                  updated_at: t.updatedAt
                })
              )
            )}`.pipe(Effect.asVoid, Effect.orDie),
      bankAccounts: (rows) =>
        !Arr.isReadonlyArrayNonEmpty(rows)
          ? Effect.void
          : sql`INSERT INTO bank_accounts ${sql.insert(
              Arr.map(
                rows,
                (a): Record<string, unknown> => ({
                  id: a.id,
                  team_id: a.teamId,
                  name: a.name,
                  type: a.type,
                  currency: a.currency,
                  balance_minor: a.balanceMinor,
                  base_currency: a.baseCurrency,
                  base_balance_minor: a.baseBalanceMinor,
                  enabled: a.enabled,
                  manual: a.manual,
                  connection_id: a.connectionId,
                  external_id: a.externalId,
                  created_at: a.createdAt,
                  updated_at: a.updatedAt
                })
              )
            )}`.pipe(Effect.asVoid, Effect.orDie)
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

import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import { KnownCurrency, renderMinor, SignedAmountMinor } from "../money/model.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** A bank account id. */
export const BankAccountId = Uuid.pipe(Schema.brand("BankAccountId"))
export type BankAccountId = typeof BankAccountId.Type

/** What a bank account holds: cash (depository), card debt (credit), other assets, loans, other liabilities. */
export const BankAccountType = Schema.Literals(["depository", "credit", "other_asset", "loan", "other_liability"])
export type BankAccountType = typeof BankAccountType.Type

/**
 * A team's bank account: manual (kept by hand) or connected (fed by a bank connection, `connectionId` set, with the
 * aggregator's own account id). Balances are integer minor units; the base balance is the balance in the team's base
 * currency, when known.
 */
export const BankAccount = Schema.Struct({
  id: BankAccountId,
  teamId: TeamId,
  name: Schema.String,
  type: BankAccountType,
  currency: KnownCurrency,
  balanceMinor: SignedAmountMinor,
  baseCurrency: Schema.NullOr(KnownCurrency),
  baseBalanceMinor: Schema.NullOr(SignedAmountMinor),
  enabled: Schema.Boolean,
  manual: Schema.Boolean,
  connectionId: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type BankAccount = typeof BankAccount.Type

/** A bank account as the API shows it; amounts in major units of their currency. */
export const BankAccountView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: BankAccountType,
  currency: Schema.String,
  balance: Schema.Number,
  baseCurrency: Schema.NullOr(Schema.String),
  baseBalance: Schema.NullOr(Schema.Number),
  enabled: Schema.Boolean,
  manual: Schema.Boolean,
  connectionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type BankAccountView = typeof BankAccountView.Type

/** The client view of a bank account. */
export const bankAccountView = (account: BankAccount): BankAccountView => ({
  id: account.id,
  name: account.name,
  type: account.type,
  currency: account.currency,
  balance: renderMinor(account.balanceMinor, account.currency),
  baseCurrency: account.baseCurrency,
  baseBalance:
    account.baseBalanceMinor === null || account.baseCurrency === null
      ? null
      : renderMinor(account.baseBalanceMinor, account.baseCurrency),
  enabled: account.enabled,
  manual: account.manual,
  connectionId: account.connectionId,
  createdAt: account.createdAt,
  updatedAt: account.updatedAt
})

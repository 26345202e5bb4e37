import { Option, Result } from "effect"
import type { TeamId } from "../../shared/model.ts"
import type { BankAccountId } from "../banking/model.ts"
import { type CalendarDate, parseMajor, renderMinor } from "../money/model.ts"
import type { CategoryId } from "./Category.ts"
import type { Transaction, TransactionId } from "./Transaction.ts"
import { TransactionInvalid } from "./TransactionErrors.ts"
import {
  type CreateTransaction,
  type TransactionQuery,
  transactionDayOf,
  type UpdateTransaction
} from "./TransactionInput.ts"
import type { TransactionChanges, TransactionFilter } from "./TransactionsRepo.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu

/** Whether an id a request names is a UUID at all (anything else is not found, without a read). */
export const isUuidText = (text: string): boolean => UUID.test(text)

const invalid = (field: string, message: string) => new TransactionInvalid({ field, message })

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** An amount in major units of `currency` as minor units, refused naming `field` (more decimals than it has). */
export const transactionAmountOf = (
  value: number | string,
  currency: string,
  field: string
): Result.Result<number, TransactionInvalid> =>
  Result.mapError(parseMajor(value, currency, field), (e) => invalid(e.field, e.message))

/** A transaction's amount in the team's base currency: both parts or neither. */
export interface TransactionBaseAmount {
  readonly baseAmountMinor: number | null
  readonly baseCurrency: string | null
}

/** The base amount of a request: the amount and its currency are given together or not at all (`p` prefixes fields). */
export const baseAmountOf = (
  baseAmount: number | null | undefined,
  baseCurrency: string | null | undefined,
  p: string
): Result.Result<TransactionBaseAmount, TransactionInvalid> => {
  if (baseAmount === undefined || baseAmount === null) {
    if (baseCurrency !== undefined && baseCurrency !== null) {
      return Result.fail(invalid(`${p}baseAmount`, "required with baseCurrency"))
    }
    return Result.succeed({ baseAmountMinor: null, baseCurrency: null })
  }
  if (baseCurrency === undefined || baseCurrency === null) {
    return Result.fail(invalid(`${p}baseCurrency`, "required with baseAmount"))
  }
  return Result.map(transactionAmountOf(baseAmount, baseCurrency, `${p}baseAmount`), (minor) => ({
    baseAmountMinor: minor,
    baseCurrency
  }))
}

/** A new manual transaction's own values: its day, its amount in minor units and its base amount. */
export interface ManualTransactionValues extends TransactionBaseAmount {
  readonly date: CalendarDate
  readonly amountMinor: number
}

/** The own values of a manual transaction to create, refused naming the first field at fault (`p` prefixes fields). */
export const manualValuesOf = (
  input: CreateTransaction,
  p: string
): Result.Result<ManualTransactionValues, TransactionInvalid> =>
  Result.gen(function* () {
    const date = transactionDayOf(input.date)
    if (date === undefined) return yield* Result.fail(invalid(`${p}date`, "expected a date"))
    const amountMinor = yield* transactionAmountOf(input.amount, input.currency, `${p}amount`)
    const base = yield* baseAmountOf(input.baseAmount, input.baseCurrency, p)
    return { date, amountMinor, ...base }
  })

/** A manual transaction as recorded: what the input gives, its checked values and references, defaults for the rest. */
export const manualTransaction = (made: {
  readonly id: TransactionId
  readonly teamId: TeamId
  readonly at: string
  readonly input: CreateTransaction
  readonly values: ManualTransactionValues
  readonly categoryId: CategoryId | null
  readonly bankAccountId: BankAccountId | null
}): Transaction => {
  const { input, values } = made
  const frequency = input.frequency ?? null
  return {
    id: made.id,
    teamId: made.teamId,
    date: values.date,
    name: input.name,
    description: input.description ?? null,
    amountMinor: values.amountMinor,
    currency: input.currency,
    baseAmountMinor: values.baseAmountMinor,
    baseCurrency: values.baseCurrency as Transaction["baseCurrency"],
    status: input.status ?? "posted",
    internal: input.internal ?? false,
    recurring: input.recurring ?? frequency !== null,
    frequency,
    manual: true,
    note: input.note ?? null,
    categoryId: made.categoryId,
    bankAccountId: made.bankAccountId,
    taxRate: input.taxRate ?? null,
    taxType: input.taxType ?? null,
    counterpartyName: input.counterpartyName ?? null,
    provider: null,
    providerTransactionId: null,
    createdAt: made.at,
    updatedAt: made.at
  }
}

/**
 * A transaction a provider reported (a bank feed's line, an invoice's payment): what the provider says of it, and the
 * defaults of every such transaction (no base amount, category or tax yet, not internal, not recurring, not manual).
 */
export const providerTransaction = (reported: {
  readonly id: TransactionId
  readonly teamId: TeamId
  readonly at: string
  readonly date: string
  readonly name: string
  readonly description: string | null
  readonly amountMinor: number
  readonly currency: Transaction["currency"]
  readonly status: Transaction["status"]
  readonly bankAccountId: BankAccountId | null
  readonly counterpartyName: string | null
  readonly provider: string
  readonly providerTransactionId: string
}): Transaction => ({
  id: reported.id,
  teamId: reported.teamId,
  date: reported.date,
  name: reported.name,
  description: reported.description,
  amountMinor: reported.amountMinor,
  currency: reported.currency,
  baseAmountMinor: null,
  baseCurrency: null,
  status: reported.status,
  internal: false,
  recurring: false,
  frequency: null,
  manual: false,
  note: null,
  categoryId: null,
  bankAccountId: reported.bankAccountId,
  taxRate: null,
  taxType: null,
  counterpartyName: reported.counterpartyName,
  provider: reported.provider,
  providerTransactionId: reported.providerTransactionId,
  createdAt: reported.at,
  updatedAt: reported.at
})

/** Changes of an update, without the time it was made. */
export type TransactionEdits = Omit<TransactionChanges, "updatedAt">

/**
 * The changes an update makes to a transaction's own values: its day, its amount (read again in a new currency when only
 * the currency changes) and its base amount (a cleared base currency clears it). Refused naming the field at fault.
 */
export const valueChangesOf = (
  current: Transaction,
  input: UpdateTransaction,
  p: string
): Result.Result<TransactionEdits, TransactionInvalid> =>
  Result.gen(function* () {
    const changes: Mutable<TransactionEdits> = {}
    if (input.date !== undefined) {
      const date = transactionDayOf(input.date)
      if (date === undefined) return yield* Result.fail(invalid(`${p}date`, "expected a date"))
      changes.date = date
    }
    const currency = input.currency ?? current.currency
    if (input.amount !== undefined) {
      changes.amountMinor = yield* transactionAmountOf(input.amount, currency, `${p}amount`)
    } else if (currency !== current.currency) {
      changes.amountMinor = yield* transactionAmountOf(
        renderMinor(current.amountMinor, current.currency),
        currency,
        `${p}currency`
      )
    }
    if (input.currency !== undefined) changes.currency = input.currency
    if (input.baseAmount !== undefined || input.baseCurrency !== undefined) {
      const baseCurrency = input.baseCurrency !== undefined ? input.baseCurrency : current.baseCurrency
      const baseAmount =
        input.baseAmount !== undefined
          ? input.baseAmount
          : current.baseAmountMinor === null || current.baseCurrency === null || baseCurrency === null
            ? null
            : renderMinor(current.baseAmountMinor, current.baseCurrency)
      const base =
        input.baseCurrency === null && input.baseAmount === undefined
          ? { baseAmountMinor: null, baseCurrency: null }
          : yield* baseAmountOf(baseAmount, baseCurrency, p)
      changes.baseAmountMinor = base.baseAmountMinor
      changes.baseCurrency = base.baseCurrency
    }
    return changes
  })

/** The changes an update makes to fields taken as given (a frequency given makes the transaction recurring). */
export const plainChangesOf = (input: UpdateTransaction): TransactionEdits => {
  const changes: Mutable<TransactionEdits> = {}
  if (input.name !== undefined) changes.name = input.name
  if (input.description !== undefined) changes.description = input.description
  if (input.status !== undefined) changes.status = input.status
  if (input.internal !== undefined) changes.internal = input.internal
  if (input.frequency !== undefined) changes.frequency = input.frequency
  if (input.recurring !== undefined) changes.recurring = input.recurring
  else if (input.frequency !== undefined && input.frequency !== null) changes.recurring = true
  if (input.note !== undefined) changes.note = input.note
  if (input.taxRate !== undefined) changes.taxRate = input.taxRate
  if (input.taxType !== undefined) changes.taxType = input.taxType
  if (input.counterpartyName !== undefined) changes.counterpartyName = input.counterpartyName
  return changes
}

/** The date range of a list query, refused when a bound is not a date or `from` is after `to`. */
export const transactionDayRangeOf = (
  query: Pick<TransactionQuery, "from" | "to">
): Result.Result<Pick<TransactionFilter, "from" | "to">, TransactionInvalid> => {
  const range: Mutable<Pick<TransactionFilter, "from" | "to">> = {}
  for (const field of ["from", "to"] as const) {
    const text = query[field]
    if (text === undefined) continue
    const day = transactionDayOf(text)
    if (day === undefined) return Result.fail(invalid(field, "expected a date YYYY-MM-DD or an ISO 8601 date-time"))
    range[field] = day
  }
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    return Result.fail(invalid("from", "must not be after to"))
  }
  return Result.succeed(range)
}

/**
 * The bounds of a list query on the absolute amount, in minor units of its currency (which they need), refused when
 * the minimum is above the maximum.
 */
export const transactionAmountRangeOf = (
  query: Pick<TransactionQuery, "amountMin" | "amountMax" | "currency">
): Result.Result<Pick<TransactionFilter, "amountMinMinor" | "amountMaxMinor">, TransactionInvalid> =>
  Result.gen(function* () {
    const range: Mutable<Pick<TransactionFilter, "amountMinMinor" | "amountMaxMinor">> = {}
    if (query.amountMin === undefined && query.amountMax === undefined) return range
    if (query.currency === undefined) {
      return yield* Result.fail(invalid("currency", "required with amountMin or amountMax"))
    }
    if (query.amountMin !== undefined) {
      range.amountMinMinor = Math.abs(yield* transactionAmountOf(query.amountMin, query.currency, "amountMin"))
    }
    if (query.amountMax !== undefined) {
      range.amountMaxMinor = Math.abs(yield* transactionAmountOf(query.amountMax, query.currency, "amountMax"))
    }
    if (
      range.amountMinMinor !== undefined &&
      range.amountMaxMinor !== undefined &&
      range.amountMinMinor > range.amountMaxMinor
    ) {
      return yield* Result.fail(invalid("amountMin", "must not be above amountMax"))
    }
    return range
  })

/** Why an attachment's path is refused: not a file of the team, or a segment that leaves its folder; none if it is fine. */
export const attachmentPathRefusal = (
  teamId: TeamId,
  path: ReadonlyArray<string>
): Option.Option<TransactionInvalid> => {
  if (path[0] !== teamId) return Option.some(invalid("path.0", "a file of the team: its path starts with the team id"))
  if (path.some((segment) => segment === "." || segment === ".." || segment.includes("/"))) {
    return Option.some(invalid("path", "path segments must not be '.', '..' or contain '/'"))
  }
  return Option.none()
}

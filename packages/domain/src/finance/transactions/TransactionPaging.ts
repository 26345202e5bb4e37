import { Option, Result } from "effect"
import { type Transaction, type TransactionDetails, TransactionId } from "./Transaction.ts"
import { TransactionInvalid } from "./TransactionErrors.ts"
import { type TransactionQuery, transactionDayOf } from "./TransactionInput.ts"
import { isUuidText } from "./TransactionRules.ts"
import type { TransactionPosition, TransactionSort } from "./TransactionsRepo.ts"

/** A page of a transaction list; `cursor` is the position the next page starts after (null on the last page). */
export interface TransactionPage {
  readonly data: ReadonlyArray<TransactionDetails>
  readonly cursor: string | null
  readonly hasNextPage: boolean
  readonly hasPreviousPage: boolean
}

/** The order a list query asks for: by date, newest first, unless it names another. */
export const transactionSortOf = (query: Pick<TransactionQuery, "sortBy" | "direction">): TransactionSort => ({
  by: query.sortBy ?? "date",
  direction: query.direction ?? "desc"
})

/** `by~direction~key~id`: where a page of one order ended. */
export const encodeTransactionPosition = (sort: TransactionSort, t: Transaction): string =>
  `${sort.by}~${sort.direction}~${sort.by === "date" ? t.date : t.amountMinor}~${t.id}`

/** The position a cursor names, none when it is not a position of this order (another order, a bad key or id). */
export const decodeTransactionPosition = (
  cursor: string,
  sort: TransactionSort
): Option.Option<TransactionPosition> => {
  const [by, direction, key, id, ...rest] = cursor.split("~")
  if (rest.length > 0 || by !== sort.by || direction !== sort.direction || key === undefined || id === undefined) {
    return Option.none()
  }
  if (!isUuidText(id)) return Option.none()
  if (by === "date") {
    const day = transactionDayOf(key)
    return day === key ? Option.some({ key: day, id: TransactionId.make(id) }) : Option.none()
  }
  return /^-?\d{1,15}$/u.test(key) ? Option.some({ key: Number(key), id: TransactionId.make(id) }) : Option.none()
}

/** Where a list query starts: from the top without a cursor, after the cursor's position, refused for a foreign cursor. */
export const transactionStartOf = (
  cursor: string | undefined,
  sort: TransactionSort
): Result.Result<Option.Option<TransactionPosition>, TransactionInvalid> => {
  if (cursor === undefined || cursor === "") return Result.succeed(Option.none())
  const after = decodeTransactionPosition(cursor, sort)
  return Option.isNone(after)
    ? Result.fail(new TransactionInvalid({ field: "cursor", message: "not a cursor of this list and order" }))
    : Result.succeed(after)
}

/** The page of up to `limit + 1` rows read after `after`: the first `limit`, and a cursor when more follow. */
export const transactionPageOf = (
  rows: ReadonlyArray<TransactionDetails>,
  limit: number,
  sort: TransactionSort,
  after: Option.Option<TransactionPosition>
): TransactionPage => {
  const data = rows.slice(0, limit)
  const last = data.at(-1)
  const hasNextPage = rows.length > limit
  return {
    data,
    cursor: hasNextPage && last !== undefined ? encodeTransactionPosition(sort, last.transaction) : null,
    hasNextPage,
    hasPreviousPage: Option.isSome(after)
  }
}

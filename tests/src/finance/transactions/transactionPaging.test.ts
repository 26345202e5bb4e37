import { assert, describe, it } from "@effect/vitest"
import {
  decodeTransactionPosition,
  encodeTransactionPosition,
  TeamId,
  type Transaction,
  type TransactionDetails,
  transactionPageOf,
  transactionSortOf,
  transactionStartOf
} from "@svc/domain"
import { Option, Result } from "effect"
import { transaction } from "../reports/ReportsFixtures.ts"

const team = TeamId.make(crypto.randomUUID())

const row = (date: string, amountMinor: number) => transaction(team, date, amountMinor)

const details = (t: Transaction): TransactionDetails => ({
  transaction: t,
  category: null,
  account: null,
  tags: [],
  attachments: []
})

const byDate = { by: "date", direction: "desc" } as const
const byAmount = { by: "amount", direction: "asc" } as const

describe("transaction paging", () => {
  it("a list is by date, newest first, unless the query names another order", () => {
    assert.deepStrictEqual(transactionSortOf({}), byDate)
    assert.deepStrictEqual(transactionSortOf({ sortBy: "amount", direction: "asc" }), byAmount)
    assert.deepStrictEqual(transactionSortOf({ direction: "asc" }), { by: "date", direction: "asc" })
  })

  it("a position reads back in the order it was written for, and in no other", () => {
    const t = row("2026-02-28", -12_500)
    const dateCursor = encodeTransactionPosition(byDate, t)
    assert.strictEqual(dateCursor, `date~desc~2026-02-28~${t.id}`)
    assert.deepStrictEqual(decodeTransactionPosition(dateCursor, byDate), Option.some({ key: "2026-02-28", id: t.id }))
    const amountCursor = encodeTransactionPosition(byAmount, t)
    assert.deepStrictEqual(decodeTransactionPosition(amountCursor, byAmount), Option.some({ key: -12_500, id: t.id }))
    assert.isTrue(Option.isNone(decodeTransactionPosition(dateCursor, byAmount)))
    assert.isTrue(Option.isNone(decodeTransactionPosition(dateCursor, { by: "date", direction: "asc" })))
  })

  it("a cursor with a bad key, a bad id or extra parts names no position", () => {
    const id = crypto.randomUUID()
    for (const cursor of [
      `date~desc~2026-02-30~${id}`,
      `date~desc~2026-02-28T00:00:00Z~${id}`,
      "date~desc~2026-02-28~not-an-id",
      `date~desc~2026-02-28~${id}~more`,
      "date~desc~2026-02-28",
      ""
    ]) {
      assert.isTrue(Option.isNone(decodeTransactionPosition(cursor, byDate)), cursor)
    }
    for (const cursor of [`amount~asc~1.5~${id}`, `amount~asc~1234567890123456~${id}`, `amount~asc~~${id}`]) {
      assert.isTrue(Option.isNone(decodeTransactionPosition(cursor, byAmount)), cursor)
    }
  })

  it("a list starts at the top without a cursor, after the cursor's position, and refuses another list's cursor", () => {
    const t = row("2026-02-28", 5)
    assert.deepStrictEqual(transactionStartOf(undefined, byDate), Result.succeed(Option.none()))
    assert.deepStrictEqual(transactionStartOf("", byDate), Result.succeed(Option.none()))
    assert.deepStrictEqual(
      transactionStartOf(encodeTransactionPosition(byDate, t), byDate),
      Result.succeed(Option.some({ key: "2026-02-28", id: t.id }))
    )
    const foreign = transactionStartOf(encodeTransactionPosition(byAmount, t), byDate)
    if (Result.isSuccess(foreign)) return assert.fail("another order's cursor was taken")
    assert.deepInclude(foreign.failure, { _tag: "TransactionInvalid", field: "cursor" })
  })

  it("a page keeps `limit` rows and names the last one as the cursor only when more follow", () => {
    const rows = [row("2026-03-03", 1), row("2026-03-02", 2), row("2026-03-01", 3)].map(details)
    const first = transactionPageOf(rows, 2, byDate, Option.none())
    assert.deepStrictEqual(first.data, rows.slice(0, 2))
    assert.strictEqual(first.cursor, encodeTransactionPosition(byDate, rows[1]!.transaction))
    assert.isTrue(first.hasNextPage)
    assert.isFalse(first.hasPreviousPage)
    const after = Option.some({ key: "2026-03-02", id: rows[1]!.transaction.id })
    const last = transactionPageOf(rows.slice(2), 2, byDate, after)
    assert.deepStrictEqual(last, { data: rows.slice(2), cursor: null, hasNextPage: false, hasPreviousPage: true })
    assert.deepStrictEqual(transactionPageOf([], 2, byDate, Option.none()), {
      data: [],
      cursor: null,
      hasNextPage: false,
      hasPreviousPage: false
    })
  })
})

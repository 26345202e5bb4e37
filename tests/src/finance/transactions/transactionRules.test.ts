import { assert, describe, it } from "@effect/vitest"
import {
  attachmentPathRefusal,
  baseAmountOf,
  isUuidText,
  manualTransaction,
  manualValuesOf,
  plainChangesOf,
  TeamId,
  TransactionId,
  transactionAmountOf,
  transactionAmountRangeOf,
  transactionDayRangeOf,
  valueChangesOf
} from "@svc/domain"
import { Option, Result } from "effect"
import { transaction } from "../reports/ReportsFixtures.ts"

const team = TeamId.make(crypto.randomUUID())
const AT = "2026-03-01T10:00:00.000Z"

const success = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) return assert.fail(`expected a success, got ${JSON.stringify(result.failure)}`)
  return result.success
}

/** The field and message a refusal names. */
const refusal = <A>(result: Result.Result<A, { readonly _tag: string; readonly field: string }>) => {
  if (Result.isSuccess(result)) return assert.fail(`expected a refusal, got ${JSON.stringify(result.success)}`)
  assert.strictEqual(result.failure._tag, "TransactionInvalid")
  return result.failure.field
}

const current = transaction(team, "2026-02-28", -12_500, {
  name: "Design tool",
  currency: "EUR",
  baseAmountMinor: -13_556,
  baseCurrency: "USD"
})

describe("transaction rules", () => {
  it("an id a request names is looked up only when it is a UUID", () => {
    assert.isTrue(isUuidText("0190f5c2-7b3a-7c1d-9e2f-3a4b5c6d7e8f"))
    assert.isTrue(isUuidText("0190F5C2-7B3A-7C1D-9E2F-3A4B5C6D7E8F"))
    assert.isFalse(isUuidText("software"))
    assert.isFalse(isUuidText("0190f5c2-7b3a-7c1d-9e2f-3a4b5c6d7e8f0"))
    assert.isFalse(isUuidText(""))
  })

  it("amounts are read in their currency's minor units; too many decimals are refused naming the field", () => {
    assert.strictEqual(success(transactionAmountOf(-125.5, "EUR", "amount")), -12_550)
    assert.strictEqual(success(transactionAmountOf("4500", "JPY", "amount")), 4500)
    assert.strictEqual(refusal(transactionAmountOf(1.234, "USD", "2.amount")), "2.amount")
    assert.strictEqual(refusal(transactionAmountOf(12.5, "JPY", "amountMin")), "amountMin")
  })

  it("a base amount and its currency come together or not at all", () => {
    assert.deepStrictEqual(success(baseAmountOf(undefined, undefined, "")), {
      baseAmountMinor: null,
      baseCurrency: null
    })
    assert.deepStrictEqual(success(baseAmountOf(null, null, "")), { baseAmountMinor: null, baseCurrency: null })
    assert.deepStrictEqual(success(baseAmountOf(-135.56, "USD", "")), { baseAmountMinor: -13_556, baseCurrency: "USD" })
    assert.strictEqual(refusal(baseAmountOf(null, "USD", "1.")), "1.baseAmount")
    assert.strictEqual(refusal(baseAmountOf(10, undefined, "1.")), "1.baseCurrency")
    assert.strictEqual(refusal(baseAmountOf(0.001, "USD", "")), "baseAmount")
  })

  it("a new transaction's values: the UTC day of a date-time, the amount, the base amount; the first fault is named", () => {
    const input = { name: "Lunch", date: "2026-03-01T23:30:00-02:00", amount: -12.5, currency: "EUR" }
    assert.deepStrictEqual(success(manualValuesOf(input, "")), {
      date: "2026-03-02",
      amountMinor: -1250,
      baseAmountMinor: null,
      baseCurrency: null
    })
    assert.strictEqual(refusal(manualValuesOf({ ...input, date: "2026-02-30" }, "3.")), "3.date")
    assert.strictEqual(
      refusal(manualValuesOf({ ...input, amount: 1.234, baseAmount: 1, baseCurrency: null }, "")),
      "amount"
    )
    assert.strictEqual(refusal(manualValuesOf({ ...input, baseAmount: 1 }, "")), "baseCurrency")
  })

  it("a manual transaction takes the input's fields and defaults the rest (posted, recurring with a frequency)", () => {
    const input = { name: "Rent", date: "2026-03-01", amount: -900, currency: "EUR", frequency: "monthly" as const }
    const values = success(manualValuesOf(input, ""))
    const id = TransactionId.make(crypto.randomUUID())
    const made = manualTransaction({ id, teamId: team, at: AT, input, values, categoryId: null, bankAccountId: null })
    assert.deepInclude(made, {
      id,
      teamId: team,
      date: "2026-03-01",
      amountMinor: -90_000,
      status: "posted",
      internal: false,
      recurring: true,
      frequency: "monthly",
      manual: true,
      description: null,
      provider: null,
      providerTransactionId: null,
      createdAt: AT,
      updatedAt: AT
    })
    const oneOff = manualTransaction({
      id,
      teamId: team,
      at: AT,
      input: { ...input, frequency: null, status: "pending" },
      values,
      categoryId: null,
      bankAccountId: null
    })
    assert.deepInclude(oneOff, { recurring: false, frequency: null, status: "pending" })
    const stated = manualTransaction({
      id,
      teamId: team,
      at: AT,
      input: { ...input, recurring: false },
      values,
      categoryId: null,
      bankAccountId: null
    })
    assert.isFalse(stated.recurring)
  })

  it("an update's own values: a new currency reads the amount again in it; a cleared base currency clears the base", () => {
    assert.deepStrictEqual(success(valueChangesOf(current, {}, "")), {})
    assert.deepStrictEqual(success(valueChangesOf(current, { date: "2026-03-05T01:00:00Z" }, "")), {
      date: "2026-03-05"
    })
    assert.deepStrictEqual(success(valueChangesOf(current, { currency: "USD" }, "")), {
      amountMinor: -12_500,
      currency: "USD"
    })
    assert.deepStrictEqual(success(valueChangesOf(current, { currency: "JPY" }, "")), {
      amountMinor: -125,
      currency: "JPY"
    })
    const withCents = { ...current, amountMinor: -12_550 }
    assert.strictEqual(refusal(valueChangesOf(withCents, { currency: "JPY" }, "0.")), "0.currency")
    assert.deepStrictEqual(success(valueChangesOf(current, { currency: "JPY", amount: -1900 }, "")), {
      amountMinor: -1900,
      currency: "JPY"
    })
    assert.deepStrictEqual(success(valueChangesOf(current, { baseCurrency: null }, "")), {
      baseAmountMinor: null,
      baseCurrency: null
    })
    assert.deepStrictEqual(success(valueChangesOf(current, { baseAmount: -140 }, "")), {
      baseAmountMinor: -14_000,
      baseCurrency: "USD"
    })
    assert.deepStrictEqual(success(valueChangesOf(current, { baseCurrency: "GBP" }, "")), {
      baseAmountMinor: -13_556,
      baseCurrency: "GBP"
    })
    assert.strictEqual(refusal(valueChangesOf(current, { baseCurrency: null, baseAmount: 5 }, "2.")), "2.baseCurrency")
    assert.strictEqual(refusal(valueChangesOf(current, { date: "yesterday" }, "")), "date")
  })

  it("an update's plain fields are taken as given; a frequency makes it recurring unless recurring is given", () => {
    assert.deepStrictEqual(plainChangesOf({}), {})
    assert.deepStrictEqual(plainChangesOf({ name: "Figma", note: null, taxRate: 19, counterpartyName: null }), {
      name: "Figma",
      note: null,
      taxRate: 19,
      counterpartyName: null
    })
    assert.deepStrictEqual(plainChangesOf({ frequency: "weekly" }), { frequency: "weekly", recurring: true })
    assert.deepStrictEqual(plainChangesOf({ frequency: null }), { frequency: null })
    assert.deepStrictEqual(plainChangesOf({ frequency: "weekly", recurring: false }), {
      frequency: "weekly",
      recurring: false
    })
  })

  it("a list's date range: dates or date-times by their UTC day, from not after to", () => {
    assert.deepStrictEqual(success(transactionDayRangeOf({})), {})
    assert.deepStrictEqual(success(transactionDayRangeOf({ from: "2026-01-01", to: "2026-01-31T23:00:00-05:00" })), {
      from: "2026-01-01",
      to: "2026-02-01"
    })
    assert.deepStrictEqual(success(transactionDayRangeOf({ from: "2026-01-01", to: "2026-01-01" })), {
      from: "2026-01-01",
      to: "2026-01-01"
    })
    assert.strictEqual(refusal(transactionDayRangeOf({ from: "2026-02-01", to: "2026-01-31" })), "from")
    assert.strictEqual(refusal(transactionDayRangeOf({ from: "2026-01-01", to: "soon" })), "to")
    assert.strictEqual(refusal(transactionDayRangeOf({ from: "2026-13-01" })), "from")
  })

  it("a list's amount bounds compare absolute minor units of the currency they need", () => {
    assert.deepStrictEqual(success(transactionAmountRangeOf({ currency: "EUR" })), {})
    assert.deepStrictEqual(success(transactionAmountRangeOf({ amountMin: -10, amountMax: "25.5", currency: "EUR" })), {
      amountMinMinor: 1000,
      amountMaxMinor: 2550
    })
    assert.deepStrictEqual(success(transactionAmountRangeOf({ amountMax: 7, currency: "JPY" })), { amountMaxMinor: 7 })
    assert.strictEqual(refusal(transactionAmountRangeOf({ amountMin: 1 })), "currency")
    assert.strictEqual(
      refusal(transactionAmountRangeOf({ amountMin: 30, amountMax: 20, currency: "EUR" })),
      "amountMin"
    )
    assert.strictEqual(refusal(transactionAmountRangeOf({ amountMax: 0.5, currency: "JPY" })), "amountMax")
  })

  it("an attachment is a file of the team whose path segments stay in their folder", () => {
    assert.isTrue(Option.isNone(attachmentPathRefusal(team, [team, "receipts", "lunch.pdf"])))
    const field = (path: ReadonlyArray<string>) => Option.map(attachmentPathRefusal(team, path), (e) => e.field)
    assert.deepStrictEqual(field([crypto.randomUUID(), "lunch.pdf"]), Option.some("path.0"))
    assert.deepStrictEqual(field(["receipts", team]), Option.some("path.0"))
    assert.deepStrictEqual(field([team, "..", "other"]), Option.some("path"))
    assert.deepStrictEqual(field([team, "."]), Option.some("path"))
    assert.deepStrictEqual(field([team, "a/b.pdf"]), Option.some("path"))
  })
})

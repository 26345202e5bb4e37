import { assert, describe, it } from "@effect/vitest"
import type { BankAccount } from "@svc/sdk"
import { cashOf } from "../src/finance/overview/cash.ts"
import { customRange, presetRange, todayUtc } from "../src/finance/overview/period.ts"
import { fromMajor } from "../src/format/money.ts"

const account = (fields: Partial<BankAccount>): BankAccount => ({
  id: crypto.randomUUID(),
  name: "Account",
  type: "depository",
  currency: "USD",
  balance: 0,
  baseCurrency: "USD",
  baseBalance: 0,
  enabled: true,
  manual: true,
  connectionId: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...fields
})

describe("the finance overview's periods and cash", () => {
  it("cuts preset periods into whole UTC months ending today, the current month included", () => {
    assert.strictEqual(todayUtc(Date.UTC(2026, 2, 31, 23, 59)), "2026-03-31", "the UTC day, whatever the reader's zone")
    assert.deepStrictEqual(presetRange("month", "2026-03-31"), { from: "2026-03-01", to: "2026-03-31" })
    assert.deepStrictEqual(presetRange("3m", "2026-03-31"), { from: "2026-01-01", to: "2026-03-31" })
    assert.deepStrictEqual(presetRange("6m", "2026-03-31"), { from: "2025-10-01", to: "2026-03-31" })
    assert.deepStrictEqual(presetRange("12m", "2026-03-31"), { from: "2025-04-01", to: "2026-03-31" })
    assert.deepStrictEqual(presetRange("ytd", "2026-03-31"), { from: "2026-01-01", to: "2026-03-31" })
    assert.deepStrictEqual(presetRange("ytd", "2026-01-05"), { from: "2026-01-01", to: "2026-01-05" })
  })

  it("takes a custom range of two real days in order, and names what is wrong otherwise", () => {
    assert.deepStrictEqual(customRange("2025-01-10", "2025-03-02"), { range: { from: "2025-01-10", to: "2025-03-02" } })
    assert.deepStrictEqual(customRange("2025-01-10", "2025-01-10"), { range: { from: "2025-01-10", to: "2025-01-10" } })
    assert.deepStrictEqual(customRange("", "2025-03-02"), { errors: { from: "Enter the first day" } })
    assert.deepStrictEqual(customRange("2025-01-10", "2025-13-40"), { errors: { to: "Enter the last day" } })
    assert.deepStrictEqual(customRange("2025-03-02", "2025-01-10"), {
      errors: { from: "The first day must not be after the last" }
    })
  })

  it("counts as cash the enabled depository and other-asset accounts, each in the currency or its base balance", () => {
    const cash = cashOf(
      [
        account({ name: "Operating", balance: 1_000.1 }),
        account({ name: "Savings", type: "other_asset", balance: 0.2 }),
        account({ name: "Euro", currency: "EUR", balance: 90, baseCurrency: "USD", baseBalance: 100.05 }),
        account({ name: "Yen", currency: "JPY", balance: 5_000, baseCurrency: null, baseBalance: null }),
        account({ name: "Card", type: "credit", balance: 700 }),
        account({ name: "Loan", type: "loan", balance: 9_000 }),
        account({ name: "Closed", balance: 50, enabled: false })
      ],
      "USD"
    )
    assert.deepStrictEqual(cash, { amountMinor: 110_035, counted: 3, uncounted: ["Yen"] })
    assert.deepStrictEqual(cashOf([], "USD"), { amountMinor: 0, counted: 0, uncounted: [] })
  })

  it("reads the API's major units as minor units by the currency's exponent", () => {
    assert.strictEqual(fromMajor(12.34, "USD"), 1234)
    assert.strictEqual(fromMajor(-3049.99, "USD"), -304_999)
    assert.strictEqual(fromMajor(500, "JPY"), 500)
    assert.strictEqual(fromMajor(1.234, "KWD"), 1234)
    assert.strictEqual(fromMajor(0.1 + 0.2, "USD"), 30, "no float residue")
  })
})

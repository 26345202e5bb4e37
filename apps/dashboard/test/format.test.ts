import { assert, describe, it } from "@effect/vitest"
import { describeReason } from "../src/approvals/reasons.ts"
import { formatMoney, parseMajor, toMajorText } from "../src/format/money.ts"
import { formatRelative } from "../src/format/time.ts"

describe("the dashboard's formatting", () => {
  it("shows minor units as major units with the currency's own digits", () => {
    assert.strictEqual(formatMoney(1999, "USD", "en-US"), "$19.99")
    assert.strictEqual(formatMoney(-2500, "USD", "en-US"), "-$25.00")
    assert.strictEqual(formatMoney(1999, "JPY", "en-US"), "¥1,999")
    assert.strictEqual(formatMoney(1999, "KWD", "en-US"), "KWD\u00a01.999")
    assert.strictEqual(formatMoney(123456, "EUR", "de-DE"), "1.234,56\u00a0€")
  })

  it("reads typed major units back as minor units, refusing more digits than the currency has", () => {
    assert.strictEqual(parseMajor("12.34", "USD"), 1234)
    assert.strictEqual(parseMajor(" 10 ", "USD"), 1000)
    assert.strictEqual(parseMajor("0,5", "EUR"), 50)
    assert.strictEqual(parseMajor("1999", "JPY"), 1999)
    assert.strictEqual(parseMajor("0.001", "KWD"), 1)
    for (const [text, currency] of [
      ["12.345", "USD"],
      ["1.5", "JPY"],
      ["-1", "USD"],
      ["1e3", "USD"],
      ["", "USD"],
      ["ten", "USD"]
    ] as const) {
      assert.isUndefined(parseMajor(text, currency), `${text} ${currency}`)
    }
    assert.strictEqual(toMajorText(1234, "USD"), "12.34")
    assert.strictEqual(toMajorText(5, "JPY"), "5")
    assert.strictEqual(parseMajor(toMajorText(1001, "KWD"), "KWD"), 1001)
  })

  it("says how far a moment is in words", () => {
    const now = Date.parse("2026-11-27T12:00:00Z")
    assert.match(formatRelative("2026-11-27T15:00:00Z", now), /3 hours/u)
    assert.match(formatRelative("2026-11-28T12:00:00Z", now), /tomorrow|1 day/u)
    assert.match(formatRelative("2026-11-27T11:55:00Z", now), /5 minutes ago/u)
  })

  it("puts a policy reason in words, its limits in money and counts as counts", () => {
    assert.strictEqual(
      describeReason({ code: "approval_threshold", message: "amount 2500 ≥ 1000", limit: 1000 }, "USD"),
      "Over the key's approval threshold (limit $10.00)"
    )
    assert.strictEqual(
      describeReason({ code: "daily_budget_exceeded", message: "m", limit: 20000, used: 19000 }, "USD"),
      "Over the daily budget (limit $200.00, already used $190.00)"
    )
    assert.strictEqual(
      describeReason({ code: "velocity_exceeded", message: "m", limit: 10, used: 10 }, "USD"),
      "Too many requests (limit 10, already used 10)"
    )
    assert.strictEqual(describeReason({ code: "new_merchant", message: "m" }, "USD"), "First payment to this merchant")
    assert.strictEqual(describeReason({ code: "something_new", message: "as the API says" }, "USD"), "as the API says")
  })
})

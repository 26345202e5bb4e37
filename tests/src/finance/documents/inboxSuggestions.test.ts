import { assert, describe, it } from "@effect/vitest"
import { amountsIn, suggestMatches, TransactionId } from "@svc/domain"

const id = (n: number) => TransactionId.make(`0190a3b4-0000-7000-8000-${String(n).padStart(12, "0")}`)
const tx = (n: number, fields: { name: string; date: string; amountMinor: number; currency?: string }) => ({
  id: id(n),
  counterpartyName: null,
  currency: "USD",
  ...fields
})

const item = {
  subject: "Your invoice INV-2026-0042 for $1,234.50",
  textBody: "Amount due: 1.234,50 USD. Paid on 2026-03-02.",
  sender: "Acme Cloud <billing@acmecloud.example>",
  attachments: [{ filename: "acme-invoice.pdf", contentType: "application/pdf", size: 10, path: null, skipped: null }],
  createdAt: "2026-03-03T09:00:00.000Z"
}

describe("inbox suggestions", () => {
  it("amounts are read in either decimal convention, without the digits of dates", () => {
    assert.deepStrictEqual(amountsIn("total 1,234.50 or 1.234,50; 99 and 12,5 on 2026-03-02"), [
      { whole: "1234", fraction: "50" },
      { whole: "1234", fraction: "50" },
      { whole: "99", fraction: "" },
      { whole: "12", fraction: "5" }
    ])
  })

  it("ranks by amount, then date proximity and the sender's name; needs an amount or a name in common", () => {
    const suggestions = suggestMatches(item, [
      tx(1, { name: "Acme Cloud", date: "2026-03-02", amountMinor: -123_450 }),
      tx(2, { name: "Other vendor", date: "2026-03-03", amountMinor: -123_450 }),
      tx(3, { name: "Acme Cloud", date: "2026-02-15", amountMinor: -999 }),
      tx(4, { name: "Coffee", date: "2026-03-03", amountMinor: -450 }),
      tx(5, { name: "Other vendor", date: "2026-01-01", amountMinor: -123_450 })
    ])
    assert.deepStrictEqual(
      suggestions.map((s) => [s.transactionId, s.score, s.reasons]),
      [
        [id(1), 0.99, ["amount", "date", "name"]],
        [id(2), 0.8, ["amount", "date"]],
        [id(5), 0.5, ["amount"]],
        [id(3), 0.34, ["date", "name"]]
      ]
    )
    assert.deepInclude(suggestions[0]!, { name: "Acme Cloud", date: "2026-03-02", amount: -1234.5, currency: "USD" })
  })

  it("an amount with more decimals than the currency has never matches; ties go to the nearer date, then the id", () => {
    const yen = suggestMatches({ ...item, subject: "¥1234.5", textBody: "" }, [
      tx(1, { name: "Shop", date: "2026-03-03", amountMinor: 1234, currency: "JPY" })
    ])
    assert.deepStrictEqual(yen, [])
    const ties = suggestMatches({ ...item, subject: "total 10.00", textBody: "", attachments: [] }, [
      tx(9, { name: "A", date: "2026-03-01", amountMinor: 1000 }),
      tx(8, { name: "B", date: "2026-03-05", amountMinor: 1000 }),
      tx(7, { name: "C", date: "2026-03-04", amountMinor: -1000 })
    ])
    assert.deepStrictEqual(
      ties.map((s) => s.transactionId),
      [id(7), id(8), id(9)]
    )
  })
})

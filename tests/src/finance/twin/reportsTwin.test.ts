import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

/** The months `count` back from this one (UTC), oldest first, as YYYY-MM. */
const lastMonths = (count: number) => {
  const now = new Date()
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1)).toISOString().slice(0, 7)
  )
}

/** The months a report answers, as YYYY-MM: burn rate is a list of points, the others have `result` rows. */
const monthsOf = (body: unknown): ReadonlyArray<string> =>
  (Array.isArray(body) ? body : (body as { result: Array<{ date: string }> }).result).map((row: { date: string }) =>
    row.date.slice(0, 7)
  )

twinSuite("reports", (it) => {
  it.effect("without a range each report covers the 12 months up to this one; runway needs only the currency", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const months = lastMonths(12)
      for (const path of ["/reports/revenue", "/reports/profit", "/reports/burn-rate", "/reports/expenses"]) {
        const answer = await app.call("GET", path, { token })
        assert.strictEqual(answer.status, 200, `${path} ${JSON.stringify(answer.body)}`)
        assert.deepStrictEqual(monthsOf(answer.body), months, path)
      }
      const spending = await app.call("GET", "/reports/spending", { token })
      assert.strictEqual(spending.status, 200, JSON.stringify(spending.body))
      const runway = await app.call("GET", "/reports/runway?currency=USD", { token })
      assert.strictEqual(runway.status, 200, JSON.stringify(runway.body))
    })
  )

  it.effect("only `from` ends the report this month; only `to` starts it 11 months before", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const months = lastMonths(3)
      const fromOnly = await app.call("GET", `/reports/burn-rate?from=${months[0]}-15`, { token })
      assert.deepStrictEqual(monthsOf(fromOnly.body), months)
      const toOnly = await app.call("GET", "/reports/burn-rate?to=2025-06-30", { token })
      const toMonths = monthsOf(toOnly.body)
      assert.deepStrictEqual([toMonths.length, toMonths[0], toMonths[11]], [12, "2024-07", "2025-06"])
      const reversed = await app.call("GET", "/reports/burn-rate?from=2999-01-01", { token })
      assertInvalid(reversed, "query.from")
    })
  )
})

import { fileURLToPath } from "node:url"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { BurnRateReport, ExpensesReport, ProfitReport, RevenueReport, SpendingReport } from "@svc/sdk"
import type { Browser, Locator, Page } from "playwright-core"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"
import { apiCall, launchBrowser, newContext, screenshot, signInThroughPage } from "./BrowserHarness.ts"

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
const percent = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 })
const monthLong = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" })

/** What the page should print for an amount the API answers in major units of USD. */
const money = (major: number) => usd.format(major)
const monthName = (date: string) => monthLong.format(new Date(`${date}T00:00:00Z`))

/** The first day of the month `offset` months from `today`'s, as `YYYY-MM-DD`. */
const monthStart = (today: string, offset: number) =>
  new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 + offset, 1)).toISOString().slice(0, 10)

/** Where the harness leaves its screenshots (git-ignored); README's images are copied from there. */
const SCREENSHOTS = fileURLToPath(new URL("../../../.data/screenshots/", import.meta.url))

/**
 * The finance overview in chromium against the real server: every figure and every chart's table equals what the
 * reports API answers for the same period, before and after the period changes; a member reads it at phone width and
 * by keyboard. The data is seeded in the months around today's (UTC), since the runway report reads the service's
 * clock; the seeded numbers are asserted too, so a report that answered zeros would not pass.
 */
describe("the finance overview in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const ownerEmail = `founder-${suffix}@example.com`
  const owner = sessionToken({ email: ownerEmail, name: "Fay Founder" })
  const memberEmail = `baker-${suffix}@example.com`
  const today = new Date().toISOString().slice(0, 10)
  let teamId = ""

  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await apiCall(server, method, path, { token: owner, ...(body === undefined ? {} : { body }) })
    assert.isTrue(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    browser = await launchBrowser()
    teamId = (await call("POST", "/teams", { name: "Fay's Bakery", baseCurrency: "USD" })).id
    for (const account of [
      { name: "Operating", currency: "USD", balance: 50_000 },
      { name: "Savings", currency: "USD", balance: 25_000.5, type: "other_asset" },
      { name: "Card", currency: "USD", balance: 1_000, type: "credit" },
      { name: "Closed", currency: "USD", balance: 999, enabled: false }
    ]) {
      await call("POST", "/bank-accounts", account)
    }
    const day = (offset: number) => (offset === 0 ? today : monthStart(today, offset).replace(/01$/u, "15"))
    const item = (offset: number, name: string, amount: number, categorySlug: string, recurring = false) => ({
      name,
      date: day(offset),
      amount,
      currency: "USD",
      categorySlug,
      ...(recurring ? { recurring: true, frequency: "monthly" } : {})
    })
    await call("POST", "/transactions/bulk", [
      item(0, "Shop sales", 2_000, "product-sales"),
      item(0, "Oven repair", -500, "office-supplies"),
      item(-1, "Shop sales", 12_000, "product-sales"),
      item(-1, "Rent", -3_000, "rent", true),
      item(-1, "Accounting suite", -49.99, "software", true),
      item(-2, "Shop sales", 8_000, "product-sales"),
      item(-2, "Rent", -3_000, "rent", true),
      item(-2, "New mixer", -1_500, "office-supplies"),
      item(-3, "Shop sales", 5_000, "product-sales"),
      item(-3, "Rent", -3_000, "rent", true),
      item(-3, "Shop fit-out", -4_000, "office-supplies"),
      item(-12, "Shop sales", 4_000, "product-sales"),
      item(-13, "Shop sales", 3_500, "product-sales"),
      item(-14, "Shop sales", 3_000, "product-sales")
    ])
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await outbox?.remove()
  })

  const report = (name: string, from: string, to: string) =>
    call("GET", `/reports/${name}?from=${from}&to=${to}&currency=USD`)

  /** The figure named `term` (its `<dt>`) in the list `list`: its value with what it means. */
  const figureOf = (page: Page, list: string, term: string) =>
    page
      .locator(`dl[aria-label='${list}'] > div`)
      .filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`, "u") }) })
      .locator("dd")
      .innerText()

  /** Waits until the chart `name` shows `count` months (the reports of a new period arrived). */
  const waitForMonths = async (page: Page, name: string, count: number) => {
    const rows = page.getByRole("figure", { name }).locator("tbody tr")
    await rows.nth(count - 1).waitFor({ state: "attached" })
    await rows.nth(count).waitFor({ state: "detached" })
  }

  /** A chart's text alternative, opened: each row's cells as the reader sees them. */
  const tableOf = async (figure: Locator) => {
    const details = figure.locator("details")
    if ((await details.getAttribute("open")) === null) await details.locator("summary").click()
    return figure
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => (cell as HTMLElement).innerText.trim()))
      )
  }

  /** Asserts every figure of the period and every chart equals the reports API's answer for `from`..`to`. */
  const assertPeriod = async (page: Page, from: string, to: string) => {
    const [revenue, profit, burnRate, expenses, spending]: [
      RevenueReport,
      ProfitReport,
      BurnRateReport,
      ExpensesReport,
      SpendingReport
    ] = await Promise.all([
      report("revenue", from, to),
      report("profit", from, to),
      report("burn-rate", from, to),
      report("expenses", from, to),
      report("spending", from, to)
    ])
    await page.locator("dl[aria-label='The period']").waitFor()
    const revenueFigure = await figureOf(page, "The period", "Revenue")
    assert.include(revenueFigure, money(revenue.summary.currentTotal))
    assert.include(revenueFigure, `from ${money(revenue.summary.prevTotal)} a year earlier`)
    const profitFigure = await figureOf(page, "The period", "Profit")
    assert.include(profitFigure, money(profit.summary.currentTotal))
    assert.include(profitFigure, `from ${money(profit.summary.prevTotal)} a year earlier`)

    const chart = (name: string) => page.getByRole("figure", { name })
    assert.deepStrictEqual(
      await tableOf(chart("Revenue by month")),
      revenue.result.map((m) => [monthName(m.date), money(m.current.value), money(m.previous.value)])
    )
    assert.deepStrictEqual(
      await tableOf(chart("Profit by month")),
      profit.result.map((m) => [monthName(m.date), money(m.current.value), money(m.previous.value)])
    )
    assert.deepStrictEqual(
      await tableOf(chart("Burn rate by month")),
      burnRate.map((m) => [monthName(m.date), money(m.value)])
    )
    assert.deepStrictEqual(
      await tableOf(chart("Expenses by month")),
      expenses.result.map((m) => [monthName(m.date), money(m.recurring), money(m.value), money(m.total)])
    )
    if (spending.length === 0) {
      await page.getByText("Nothing was spent in this period.").waitFor()
      assert.strictEqual(await chart("Spending by category").count(), 0, "no empty chart")
      return { revenue, profit, burnRate, expenses, spending }
    }
    assert.deepStrictEqual(
      await tableOf(chart("Spending by category")),
      spending.map((c) => [c.name, money(c.amount), `${percent.format(c.percentage)}%`])
    )
    const colours = await chart("Spending by category")
      .locator(".category-bar")
      .evaluateAll((bars) => bars.map((bar) => getComputedStyle(bar).backgroundColor))
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(", ")})`
    assert.deepStrictEqual(
      colours,
      spending.map((c) => rgb(c.color)),
      "each category in its own colour"
    )
    return { revenue, profit, burnRate, expenses, spending }
  }

  it("shows the figures and charts the reports API answers, for each period, by mouse and by keyboard", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await signInThroughPage(page, server, outbox, ownerEmail)
    await page.getByRole("link", { name: "Finance" }).click()
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()

    const runway = await call("GET", "/reports/runway?currency=USD")
    assert.deepStrictEqual(runway, { months: 17, medianBurn: 4_500 }, "median of 3,049.99, 4,500 and 7,000")
    await page.locator("dl[aria-label='Today']").waitFor()
    const cash = await figureOf(page, "Today", "Cash")
    assert.include(cash, "$75,000.50", "the enabled depository and other-asset accounts")
    assert.include(cash, "in 2 bank accounts")
    assert.include(await figureOf(page, "Today", "Burn"), "$4,500.00")
    assert.include(await figureOf(page, "Today", "Runway"), "17 months")

    assert.strictEqual(await page.getByLabel("Period", { exact: true }).inputValue(), "3m", "the last 3 months first")
    const three = await assertPeriod(page, monthStart(today, -2), today)
    assert.strictEqual(three.revenue.summary.currentTotal, 22_000, "the seeded revenue of the last 3 months")
    assert.strictEqual(three.revenue.summary.prevTotal, 10_500)
    assert.deepStrictEqual(
      three.expenses.result.map((m) => [m.recurring, m.value]),
      [
        [3_000, 1_500],
        [3_049.99, 0],
        [0, 500]
      ]
    )
    await screenshot(page, "finance-overview")

    const revenueChart = page.getByRole("figure", { name: "Revenue by month" })
    const months = revenueChart.locator(".hits button")
    await months.nth(1).hover()
    const tip = revenueChart.locator(".tip")
    assert.include(await tip.innerText(), `${monthName(monthStart(today, -1))}`)
    assert.include(await tip.innerText(), "This period: $12,000.00")
    await revenueChart.screenshot({ path: `${SCREENSHOTS}finance-chart.png` })

    await page.getByLabel("Period", { exact: true }).selectOption("12m")
    await waitForMonths(page, "Revenue by month", 12)
    const twelve = await assertPeriod(page, monthStart(today, -11), today)
    assert.strictEqual(twelve.revenue.summary.currentTotal, 27_000)
    assert.notStrictEqual(twelve.expenses.summary.averageExpense, three.expenses.summary.averageExpense)

    await page.getByLabel("Period", { exact: true }).selectOption("custom")
    await page.getByLabel("From", { exact: true }).fill(monthStart(today, -14))
    await page.getByLabel("To", { exact: true }).fill(monthStart(today, -12))
    await waitForMonths(page, "Revenue by month", 3)
    const custom = await assertPeriod(page, monthStart(today, -14), monthStart(today, -12))
    assert.strictEqual(custom.revenue.summary.currentTotal, 10_500)
    await page.getByLabel("From", { exact: true }).fill(monthStart(today, -30))
    await page.getByLabel("To", { exact: true }).fill(monthStart(today, -28))
    await page.getByText("No income or spending in this period").waitFor()
    assert.strictEqual(await page.getByRole("figure").count(), 0, "no chart of nothing")
    assert.include(await figureOf(page, "The period", "Revenue"), "$0.00")
    await page.getByLabel("From", { exact: true }).fill(monthStart(today, -11))
    await page.getByText("The first day must not be after the last").waitFor()
    await page.getByLabel("From", { exact: true }).fill("2000-01-01")
    const refusal = page.getByRole("alert")
    await refusal.waitFor()
    assert.include(await refusal.innerText(), "a report covers at most 120 months", "the service's refusal, shown")
    assert.strictEqual(await page.getByRole("figure").count(), 0, "no chart of a refused period")
    await context.close()
  }, 120_000)

  it("shows a member the same overview, read only, from the keyboard and at phone width", async () => {
    const before = (await outbox.messages()).length
    await call("POST", `/teams/${teamId}/invites`, { email: memberEmail, role: "member" })
    const inviteToken = await outbox.waitFor(memberEmail, /"token": "([^"]+)"/u, before)
    const accepted = await apiCall(server, "POST", "/invites/accept", {
      token: sessionToken({ email: memberEmail, name: "Ben Baker" }),
      body: { token: inviteToken }
    })
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    const context = await newContext(browser)
    const page = await context.newPage()
    await signInThroughPage(page, server, outbox, memberEmail)
    await page.setViewportSize({ width: 375, height: 812 })
    await page.getByRole("link", { name: "Finance" }).click()
    await page.locator("dl[aria-label='The period']").waitFor()
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "no sideways scrolling at 375 px"
    )

    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null
        return { tag: element?.tagName ?? "", label: element?.getAttribute("aria-label") ?? element?.innerText ?? "" }
      })
    const tabUntil = async (test: (f: { tag: string; label: string }) => boolean, what: string) => {
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press("Tab")
        if (test(await focused())) return
      }
      assert.fail(`Tab never reached ${what}`)
    }
    await page.getByRole("heading", { name: "Overview", level: 1 }).focus()
    await tabUntil((f) => f.tag === "SELECT", "the period picker")
    await page.keyboard.press("ArrowDown")
    assert.strictEqual(
      await page.getByLabel("Period", { exact: true }).inputValue(),
      "6m",
      "the arrow key picks the next period"
    )
    await waitForMonths(page, "Burn rate by month", 6)
    await assertPeriod(page, monthStart(today, -5), today)

    const burn: BurnRateReport = await report("burn-rate", monthStart(today, -5), today)
    await tabUntil((f) => f.tag === "BUTTON" && f.label.includes("Burn "), "the burn chart")
    const burnChart = page.getByRole("figure", { name: "Burn rate by month" })
    const month = (index: number) => {
      const item = burn[index]
      assert.isDefined(item)
      return { label: `${monthName(item.date)}: Burn ${money(item.value)}`, amount: money(item.value) }
    }
    assert.strictEqual((await focused()).label, month(0).label)
    assert.include(await burnChart.locator(".tip").innerText(), `Burn: ${month(0).amount}`, "the tooltip on focus")
    await page.keyboard.press("End")
    assert.strictEqual((await focused()).label, month(5).label)
    await page.keyboard.press("ArrowLeft")
    assert.strictEqual((await focused()).label, month(4).label)
    assert.include(await burnChart.locator(".tip").innerText(), `Burn: ${month(4).amount}`)
    await page.keyboard.press("Tab")
    assert.strictEqual((await focused()).label, "Show as a table", "one Tab leaves the chart for its table")
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "no sideways scrolling with the tables open"
    )
    assert.isTrue(
      await page.evaluate(() =>
        [...document.querySelectorAll("main button")].every((b) => b.closest(".hits") !== null)
      ),
      "no button but a chart's months: nothing here changes anything"
    )
    await screenshot(page, "finance-overview-phone")
    await context.close()
  }, 120_000)
})

import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Browser, Page } from "playwright-core"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"
import { apiCall, joinAsMember, launchBrowser, newContext, screenshot, signInThroughPage } from "./BrowserHarness.ts"

/** A day `daysAgo` before today (UTC), as the transactions routes take it. */
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)

/**
 * The Finance → Transactions page in a real browser against the real server: an owner categorises (one at a time and
 * in bulk), tags, attaches a receipt and excludes, each stored as the API reads it back; the filters narrow the list;
 * a member reads them without any control to change them.
 */
describe("the dashboard's transactions in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const ownerEmail = `fin-owner-${suffix}@example.com`
  const memberEmail = `fin-member-${suffix}@example.com`
  const owner = sessionToken({ email: ownerEmail, name: "Fiona Owner" })
  let teamId = ""
  const ids = new Map<string, string>()

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    browser = await launchBrowser()
    const team = await apiCall(server, "POST", "/teams", {
      token: owner,
      body: { name: "Ledgerly", baseCurrency: "USD" }
    })
    assert.strictEqual(team.status, 201, JSON.stringify(team.body))
    teamId = team.body.id
    const account = await apiCall(server, "POST", "/bank-accounts", {
      token: owner,
      body: { name: "Operating account", currency: "USD", balance: 5_000 }
    })
    assert.strictEqual(account.status, 201, JSON.stringify(account.body))
    const seeded = [
      { name: "Figma subscription", amount: -45, date: day(3), bankAccountId: account.body.id },
      { name: "Team dinner", amount: -120, date: day(4), bankAccountId: account.body.id, counterpartyName: "Bistro" },
      { name: "Train tickets", amount: -80, date: day(5), bankAccountId: account.body.id },
      { name: "Client payment", amount: 1_500, date: day(6), bankAccountId: account.body.id },
      { name: "Printer paper", amount: -15.5, date: day(7) },
      // Older filler, so that the list has a second page.
      ...Array.from({ length: 26 }, (_, n) => ({ name: `Coffee beans ${n + 1}`, amount: -3, date: day(20 + n) }))
    ]
    const created = await apiCall(server, "POST", "/transactions/bulk", {
      token: owner,
      body: seeded.map((t) => ({ currency: "USD", ...t }))
    })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    for (const t of created.body.data) ids.set(t.name, t.id)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await outbox?.remove()
  })

  const signIn = (page: Page, email: string) => signInThroughPage(page, server, outbox, email)

  const transaction = async (name: string) =>
    (await apiCall(server, "GET", `/transactions/${ids.get(name)}`, { token: owner })).body

  /** Spend per category slug over the last 12 months, in major units of USD. */
  const spending = async () => {
    const report = await apiCall(server, "GET", "/reports/spending?currency=USD", { token: owner })
    assert.strictEqual(report.status, 200, JSON.stringify(report.body))
    return new Map<string, number>(
      report.body.map((item: { slug: string; amount: number }) => [item.slug, item.amount])
    )
  }

  /** Waits until `check` holds of the API's answer (the page's change is stored before it shows, but reads race). */
  const eventually = async (check: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 10_000
    while (!(await check())) {
      assert.isBelow(Date.now(), deadline, what)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  const openTransactions = async (page: Page) => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Finance" }).click()
    await page.getByRole("navigation", { name: "Finance" }).getByRole("link", { name: "Transactions" }).click()
    await page.getByRole("heading", { name: "Transactions", level: 1 }).waitFor()
  }

  /** The names of the rows on screen, in order. */
  const rowNames = (page: Page) =>
    page
      .getByRole("table", { name: "Transactions" })
      .locator("tbody th[scope=row]")
      .evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent ?? ""))

  const waitForRows = async (page: Page, expected: ReadonlyArray<string>) => {
    await page
      .waitForFunction(
        (names) => {
          const shown = [...document.querySelectorAll("table tbody th[scope=row]")].map(
            (cell) => cell.firstChild?.textContent ?? ""
          )
          return JSON.stringify(shown) === JSON.stringify(names)
        },
        expected,
        { timeout: 10_000 }
      )
      .catch(() => undefined)
    assert.deepStrictEqual(await rowNames(page), expected)
  }

  it("lets an owner categorise, tag, attach a receipt and exclude, each stored and counted by the reports", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, ownerEmail)
    await openTransactions(page)
    const table = page.getByRole("table", { name: "Transactions" })
    await table.getByRole("row", { name: /Figma subscription/u }).waitFor()
    assert.lengthOf(await rowNames(page), 25, "the first page")
    assert.include(await table.getByRole("row", { name: /Printer paper/u }).innerText(), "-$15.50")
    await page.getByRole("button", { name: "Load more" }).click()
    await table.getByRole("row", { name: /Coffee beans 26/u }).waitFor()
    assert.lengthOf(await rowNames(page), 31, "the second page is added below the first")
    assert.strictEqual(await page.getByRole("button", { name: "Load more" }).count(), 0, "nothing more to load")

    const before = await spending()
    assert.strictEqual(before.get("software"), undefined)
    await page.getByLabel("Category of Figma subscription").selectOption({ label: "Software" })
    await eventually(async () => (await transaction("Figma subscription")).category?.slug === "software", "stored")
    const after = await spending()
    assert.strictEqual(after.get("software"), 45, "the reports count it as software")
    assert.strictEqual(after.get("uncategorized"), (before.get("uncategorized") ?? 0) - 45)

    const tagInput = page.getByLabel("Add tag to Team dinner")
    await tagInput.fill("client-x")
    await tagInput.press("Enter")
    await page.getByRole("list", { name: "Tags of Team dinner" }).getByText("client-x").waitFor()
    assert.deepStrictEqual(
      (await transaction("Team dinner")).tags.map((tag: { name: string }) => tag.name),
      ["client-x"]
    )

    // Bulk categorise, by keyboard: Space ticks a row, Enter applies.
    await page.getByLabel("Select Team dinner").focus()
    await page.keyboard.press("Space")
    await page.getByLabel("Select Train tickets").check()
    const bulk = page.getByRole("form", { name: "Selected transactions" })
    await bulk.getByText("2 selected").waitFor()
    await bulk.getByLabel("Category for the selected").selectOption({ label: "Travel" })
    await bulk.getByRole("button", { name: "Categorise 2" }).focus()
    await page.keyboard.press("Enter")
    await bulk.waitFor({ state: "detached" })
    for (const name of ["Team dinner", "Train tickets"]) {
      assert.strictEqual((await transaction(name)).category?.slug, "travel", `${name} is travel`)
      assert.strictEqual(
        await page.getByLabel(`Category of ${name}`).inputValue(),
        (await transaction(name)).category.id
      )
    }
    assert.strictEqual((await spending()).get("travel"), 200)

    await page.getByLabel("Attach receipt to Printer paper").setInputFiles({
      name: "paper-receipt.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n% a receipt\n%%EOF\n")
    })
    await page.getByRole("list", { name: "Receipts of Printer paper" }).getByText("paper-receipt.pdf").waitFor()
    const paper = await transaction("Printer paper")
    assert.deepStrictEqual(
      paper.attachments.map((a: { filename: string; type: string }) => [a.filename, a.type]),
      [["paper-receipt.pdf", "application/pdf"]]
    )
    assert.strictEqual(paper.attachments[0].path[0], teamId, "attached from the team's own storage")
    assert.isTrue(paper.isFulfilled)

    await page.getByRole("button", { name: "Exclude Train tickets" }).click()
    await page.getByRole("button", { name: "Include Train tickets" }).waitFor()
    assert.strictEqual((await transaction("Train tickets")).status, "excluded")
    assert.strictEqual((await spending()).get("travel"), 120, "an excluded transaction leaves the reports")

    // The overview's spending chart shows what the list changed: Figma as software, travel without the train.
    await page.getByRole("navigation", { name: "Finance" }).getByRole("link", { name: "Overview" }).click()
    await page.getByLabel("Period", { exact: true }).selectOption("12m")
    const byCategory = page.getByRole("figure", { name: "Spending by category" })
    await byCategory.locator("details summary").click()
    await byCategory.getByRole("row", { name: /Software/u }).waitFor()
    const spent = new Map(
      await byCategory
        .locator("tbody tr")
        .evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => (cell as HTMLElement).innerText.trim()))
        )
        .then((rows) => rows.map(([category, amount]) => [category ?? "", amount ?? ""] as const))
    )
    assert.strictEqual(spent.get("Software"), "$45.00")
    assert.strictEqual(spent.get("Travel"), "$120.00")
    await openTransactions(page)

    await page.getByRole("searchbox", { name: "Search" }).fill("dinner")
    await page.getByRole("searchbox", { name: "Search" }).press("Enter")
    await waitForRows(page, ["Team dinner"])
    await page.getByRole("searchbox", { name: "Search" }).fill("")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Travel" })
    await waitForRows(page, ["Team dinner", "Train tickets"])
    await page.getByLabel("Status").selectOption("excluded")
    await waitForRows(page, ["Train tickets"])
    await page.getByLabel("Status").selectOption("")
    await page.getByLabel("Category", { exact: true }).selectOption("")
    await page.getByLabel("Amount from (USD)").fill("100")
    await page.getByLabel("Amount from (USD)").press("Tab")
    await waitForRows(page, ["Team dinner", "Client payment"])
    await page.getByLabel("Amount from (USD)").fill("")
    await page.getByLabel("Amount from (USD)").press("Tab")
    await page.getByLabel("Receipt", { exact: true }).selectOption("true")
    await waitForRows(page, ["Printer paper"])
    await page.getByLabel("Receipt", { exact: true }).selectOption("")
    await page.getByLabel("Account").selectOption({ label: "Operating account" })
    await waitForRows(page, ["Figma subscription", "Team dinner", "Train tickets", "Client payment"])
    await page.getByLabel("From", { exact: true }).fill(day(4))
    await page.getByLabel("From", { exact: true }).press("Tab")
    await waitForRows(page, ["Figma subscription", "Team dinner"])
    await page.getByRole("searchbox", { name: "Search" }).fill("nothing-like-this")
    await page.getByRole("searchbox", { name: "Search" }).press("Enter")
    await page.getByText("No transactions match.").waitFor()
    await screenshot(page, "finance-transactions")

    await page.setViewportSize({ width: 375, height: 812 })
    await page.getByRole("searchbox", { name: "Search" }).fill("")
    await page.getByRole("searchbox", { name: "Search" }).press("Enter")
    await table.getByRole("row", { name: /Team dinner/u }).waitFor()
    await page
      .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 5_000 })
      .catch(() => undefined)
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "no sideways scrolling at phone width"
    )
    await screenshot(page, "finance-transactions-phone")
    await context.close()
  }, 180_000)

  it("shows a member the transactions without any control to change them", async () => {
    await joinAsMember(server, outbox, { teamId, owner, email: memberEmail, name: "Milo Member" })

    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, memberEmail)
    await openTransactions(page)
    const row = page.getByRole("table", { name: "Transactions" }).getByRole("row", { name: /Figma subscription/u })
    await row.waitFor()
    assert.include(await row.innerText(), "Software", "the member reads the category")
    await page.getByText("Only owners and admins can change transactions.").waitFor()
    for (const control of [
      "Category of Figma subscription",
      "Select Figma subscription",
      "Add tag to Figma subscription"
    ]) {
      assert.strictEqual(await page.getByLabel(control).count(), 0, `no ${control}`)
    }
    assert.strictEqual(await page.getByRole("button", { name: /^Exclude /u }).count(), 0)
    assert.strictEqual(await page.locator('input[type="file"]').count(), 0)

    await context.close()
  }, 180_000)
})

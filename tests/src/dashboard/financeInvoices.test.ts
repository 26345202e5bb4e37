import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Browser, Page } from "playwright-core"
import { pdfText } from "../finance/invoices/InvoiceDownloadSuite.ts"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"
import {
  apiCall,
  joinAsMember,
  launchBrowser,
  newContext,
  publicBaseUrl,
  screenshot,
  signInThroughPage
} from "./BrowserHarness.ts"

/** A day `days` after today (UTC), as a date field takes it. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/**
 * The Finance → Invoices page in a real browser against the real server: an owner writes a draft in the editor (a
 * refusal shown under its field), previews its PDF, shares its public link (opened signed out), sends it, marks it
 * paid and reaches its receipt; totals per status follow; a member reads without controls.
 */
describe("the dashboard's invoices in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const ownerEmail = `inv-owner-${suffix}@example.com`
  const memberEmail = `inv-member-${suffix}@example.com`
  const owner = sessionToken({ email: ownerEmail, name: "Ines Owner" })
  let teamId = ""

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    browser = await launchBrowser()
    const team = await apiCall(server, "POST", "/teams", {
      token: owner,
      body: { name: "Studio Nine", baseCurrency: "USD" }
    })
    assert.strictEqual(team.status, 201, JSON.stringify(team.body))
    teamId = team.body.id
    const customer = await apiCall(server, "POST", "/customers", {
      token: owner,
      body: { name: "Northwind Traders", email: "ap@northwind.example" }
    })
    assert.strictEqual(customer.status, 201, JSON.stringify(customer.body))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await outbox?.remove()
  })

  const signIn = (page: Page, email: string) => signInThroughPage(page, server, outbox, email)

  const openInvoices = async (page: Page) => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Finance" }).click()
    await page.getByRole("navigation", { name: "Finance" }).getByRole("link", { name: "Invoices" }).click()
    await page.getByRole("heading", { name: "Invoices", level: 1 }).waitFor()
  }

  /** The PDF a same-origin path of the page answers, read outside the browser: its content type and text. */
  const pdfAt = async (path: string) => {
    const response = await fetch(new URL(path, server.baseUrl))
    assert.strictEqual(response.status, 200, path)
    return { type: response.headers.get("content-type"), text: pdfText(new Uint8Array(await response.arrayBuffer())) }
  }

  /** The id of the seeded customer. */
  const customerId = async (): Promise<string | undefined> =>
    (await apiCall(server, "GET", "/customers", { token: owner })).body.data[0]?.id

  const invoices = async () => (await apiCall(server, "GET", "/invoices", { token: owner })).body.data

  it("writes a draft, previews and shares its PDF, marks it paid and reaches its receipt", async () => {
    const context = await newContext(browser)
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: publicBaseUrl(server) })
    const page = await context.newPage()
    await signIn(page, ownerEmail)
    await openInvoices(page)
    const totals = page.getByRole("navigation", { name: "Invoices by status" })
    await totals.getByRole("button", { name: /^Draft 0 \$0\.00$/u }).waitFor()
    await page.getByText("No invoices yet.").waitFor()

    await page.getByRole("button", { name: "New invoice" }).click()
    const editor = page.getByRole("form", { name: "New draft invoice" })
    assert.strictEqual(await editor.getByLabel("Customer", { exact: true }).inputValue(), (await customerId()) ?? "")
    await editor.getByLabel("Issue date").fill(inDays(5))
    await editor.getByLabel("Due date").fill(inDays(1))
    // The first line by keyboard: type, Tab to the next field, Enter saves.
    const first = editor.getByRole("group", { name: "Line 1" })
    await first.getByLabel("Description").focus()
    await page.keyboard.type("Design retainer")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Control+A")
    await page.keyboard.type("2")
    await page.keyboard.press("Tab")
    await page.keyboard.type("1500")
    await editor.getByRole("button", { name: "Add line" }).click()
    const second = editor.getByRole("group", { name: "Line 2" })
    await second.getByLabel("Description").fill("Hosting")
    await second.getByLabel("Unit price (USD)").fill("49.99")
    await second.getByLabel("Tax rate (%)").fill("10")
    await second.getByLabel("Tax rate (%)").press("Enter")
    const dueDate = editor.getByLabel("Due date")
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null, undefined, {
      timeout: 10_000
    })
    assert.strictEqual(await dueDate.getAttribute("aria-invalid"), "true", "the refused field is marked")
    const describedBy = (await dueDate.getAttribute("aria-describedby")) ?? ""
    const message = await page.locator(`[id="${describedBy.split(" ").at(-1)}"]`).innerText()
    assert.match(message, /issue/iu, "the service's reason shows under the due date")
    assert.lengthOf(await invoices(), 0, "nothing was stored")

    await dueDate.fill(inDays(35))
    await editor.getByRole("button", { name: "Save draft" }).click()
    const detail = page.getByRole("region", { name: /Invoice INV-0001/u })
    await detail.waitFor()
    const [stored] = await invoices()
    assert.strictEqual(stored.status, "draft")
    assert.deepStrictEqual(
      stored.lineItems.map((l: { name: string; quantity: number; unitPrice: number }) => [
        l.name,
        l.quantity,
        l.unitPrice
      ]),
      [
        ["Design retainer", 2, 1500],
        ["Hosting", 1, 49.99]
      ]
    )
    assert.strictEqual(stored.total, 3054.99, "3000 + 49.99 + 10 % tax of 49.99 (5.00)")
    assert.include(await detail.innerText(), "$3,054.99")
    await totals.getByRole("button", { name: /^Draft 1 \$3,054\.99$/u }).waitFor()

    const preview = detail.locator('iframe[title="PDF of INV-0001"]')
    const previewPdf = await pdfAt((await preview.getAttribute("src")) ?? "")
    assert.strictEqual(previewPdf.type, "application/pdf")
    for (const expected of ["INV-0001", "Northwind Traders", "Design retainer"])
      assert.include(previewPdf.text, expected)
    assert.match(previewPdf.text, /3,?054\.99/u, "the total")

    const link = await detail.getByLabel("Public link").inputValue()
    assert.match(link, /\/files\/download\/invoice\?token=[^&]+&preview=true$/u)
    assert.notInclude(link, teamId)
    await detail.getByRole("button", { name: "Copy link" }).click()
    await detail.getByText("Copied.").waitFor()
    assert.strictEqual(await page.evaluate(() => navigator.clipboard.readText()), link)
    const stranger = await newContext(browser)
    const shared = await stranger.request.get(link)
    assert.strictEqual(shared.status(), 200)
    assert.strictEqual(shared.headers()["content-type"], "application/pdf")
    assert.include(pdfText(await shared.body()), "Invoice INV-0001", "the link opens the PDF signed out")
    await stranger.close()

    await detail.getByRole("button", { name: "Send" }).click()
    await detail.locator(".badge-unpaid").waitFor()
    await detail.getByRole("button", { name: "Mark as paid" }).click()
    await detail.locator(".badge-paid").waitFor()
    const [paid] = await invoices()
    assert.strictEqual(paid.status, "paid")
    assert.isNotNull(paid.paidAt)
    const receipt = detail.getByRole("link", { name: "Receipt of INV-0001 (PDF)" })
    const receiptPdf = await pdfAt((await receipt.getAttribute("href")) ?? "")
    assert.strictEqual(receiptPdf.type, "application/pdf")
    assert.include(receiptPdf.text, "Receipt for invoice INV-0001")
    assert.include(receiptPdf.text, "PAID on")
    await totals.getByRole("button", { name: /^Paid 1 \$3,054\.99$/u }).waitFor()
    await totals.getByRole("button", { name: /^Draft 0 \$0\.00$/u }).click()
    await page.getByText("No draft invoices.").waitFor()
    await totals.getByRole("button", { name: /^Paid 1/u }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("table", { name: "Invoices" }).getByRole("button", { name: "INV-0001" }).waitFor()
    await screenshot(page, "finance-invoices")

    await page.setViewportSize({ width: 375, height: 812 })
    await page
      .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 5_000 })
      .catch(() => undefined)
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "no sideways scrolling at phone width"
    )
    await page.getByRole("button", { name: "New invoice" }).click()
    await page.getByRole("form", { name: "New draft invoice" }).waitFor()
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "the editor fits a phone too"
    )
    await screenshot(page, "finance-invoices-phone")
    await context.close()
  }, 180_000)

  it("shows a member the invoices without any control to change them", async () => {
    await joinAsMember(server, outbox, { teamId, owner, email: memberEmail, name: "Mia Member" })

    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, memberEmail)
    await openInvoices(page)
    await page.getByText("Only owners and admins can write, send or mark invoices paid.").waitFor()
    await page.getByRole("table", { name: "Invoices" }).getByRole("button", { name: "INV-0001" }).click()
    const detail = page.getByRole("region", { name: /Invoice INV-0001/u })
    await detail.getByRole("link", { name: "Receipt of INV-0001 (PDF)" }).waitFor()
    for (const name of ["New invoice", "Send", "Mark as paid", "Edit draft"]) {
      assert.strictEqual(await page.getByRole("button", { name, exact: true }).count(), 0, `no ${name}`)
    }
    await context.close()
  }, 180_000)
})

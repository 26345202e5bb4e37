import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Browser } from "playwright-core"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { launchBrowser, newContext, screenshot } from "./BrowserHarness.ts"

/** The reference page (`/docs`) as a reader meets it, rendered by chromium from the served OpenAPI document. */
describe("the reference page in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser

  beforeAll(async () => {
    server = await processes.start({})
    browser = await launchBrowser()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
  })

  it("shows a bearer credential in the request examples, never Basic", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/docs#tag/spend-requests/POST/v1/spend-requests`)
    const example = page.getByText(/Authorization: Bearer/u).first()
    await example.waitFor({ timeout: 30_000 })
    await screenshot(page, "reference-create-spend-request")
    const text = await page.locator("body").innerText()
    assert.include(text, "Authorization: Bearer")
    assert.notInclude(text, "Authorization: Basic")
    await context.close()
  }, 60_000)
})

import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Browser, Page } from "playwright-core"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"
import { apiCall, joinAsMember, launchBrowser, newContext, screenshot, signInThroughPage } from "./BrowserHarness.ts"

/**
 * The dashboard in a real browser against the real server on a real database: sign-in through the mailed link, the
 * approvals inbox, the ledger and the settings, and what a member without the admin role can do.
 */
describe("the dashboard in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const ownerEmail = `owner-${suffix}@example.com`
  const memberEmail = `member-${suffix}@example.com`
  const owner = sessionToken({ email: ownerEmail, name: "Olivia Owner" })
  let teamId = ""
  let agentKey = ""

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    browser = await launchBrowser()
    const team = await apiCall(server, "POST", "/teams", { token: owner, body: { name: "Acme Research" } })
    assert.strictEqual(team.status, 201, JSON.stringify(team.body))
    teamId = team.body.id
    const key = await apiCall(server, "POST", "/treasury/spending-keys", {
      token: owner,
      body: { name: "research-agent", mode: "test", policy: { approvalThreshold: 1_000 } }
    })
    assert.strictEqual(key.status, 201, JSON.stringify(key.body))
    agentKey = key.body.secret
    const deposit = await apiCall(server, "POST", "/v1/test-helpers/deposits", {
      token: agentKey,
      body: { amount: 50_000, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(deposit.status, 201, JSON.stringify(deposit.body))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await outbox?.remove()
  })

  /** The agent asks to spend `amount` cents at `merchant`: above the threshold, it waits for approval. */
  const agentSpends = async (amount: number, merchant: string, purpose: string) => {
    const answer = await apiCall(server, "POST", "/v1/spend-requests", {
      token: agentKey,
      body: { amount, currency: "USD", merchant: { name: merchant, category: "software" }, purpose },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
    assert.strictEqual(answer.body.status, "pending_approval")
    return answer.body as { id: string; approval: { id: string } }
  }

  const balance = async () => (await apiCall(server, "GET", "/v1/balance", { token: agentKey })).body

  const signIn = (page: Page, email: string) => signInThroughPage(page, server, outbox, email)

  it("signs an owner in, who approves and denies requests and sees the ledger move", async () => {
    const first = await agentSpends(2_500, "Acme Cloud", "GPU hours for the eval run")
    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, ownerEmail)

    const card = page.getByRole("article", { name: "Spend request to Acme Cloud" })
    await card.waitFor()
    await card.getByText("research-agent").waitFor()
    const text = await card.innerText()
    for (const expected of ["$25.00", "research-agent", "GPU hours for the eval run", "expires in"]) {
      assert.include(text, expected)
    }
    assert.match(text, /approval threshold|threshold/iu, "the policy's reason is shown")
    assert.strictEqual(await card.locator(".badge-test").innerText(), "Test", "a test-mode request is marked Test")
    await screenshot(page, "approvals")

    await card.getByRole("button", { name: "Approve" }).click()
    await page
      .getByRole("list", { name: "Decided approvals" })
      .getByRole("article", { name: "Spend request to Acme Cloud" })
      .waitFor()
    const decidedCard = page
      .getByRole("list", { name: "Decided approvals" })
      .getByRole("article", { name: "Spend request to Acme Cloud" })
    await decidedCard.getByText("by Olivia Owner").waitFor()
    assert.match(
      await decidedCard.innerText(),
      /Decided\s+by Olivia Owner, [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M/u,
      "who decided (by name), and when"
    )
    const approved = await apiCall(server, "GET", `/v1/spend-requests/${first.id}`, { token: agentKey })
    assert.strictEqual(approved.body.status, "approved")
    const moved = await balance()
    assert.deepStrictEqual([moved.posted, moved.pending], [47_500, 0], "the approved amount was posted")

    const second = await agentSpends(4_000, "Bistro Lunch", "team lunch")
    const late = page.getByRole("article", { name: "Spend request to Bistro Lunch" })
    await late.waitFor({ timeout: 20_000 })
    await late.getByLabel("Note (optional)").fill("not in this month's budget")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    assert.strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Deny", "Tab reaches Deny")
    await page.keyboard.press("Enter")
    await page
      .getByRole("list", { name: "Decided approvals" })
      .getByRole("article", { name: "Spend request to Bistro Lunch" })
      .waitFor()
    const denied = await apiCall(server, "GET", `/v1/spend-requests/${second.id}`, { token: agentKey })
    assert.strictEqual(denied.body.status, "denied")
    assert.strictEqual(denied.body.approval.note, "not in this month's budget")
    assert.strictEqual((await balance()).posted, 47_500)
    await page.getByText("Nothing is waiting for you.").waitFor()

    await page.getByRole("link", { name: "Activity" }).click()
    const activity = page.getByRole("table", { name: "Activity" })
    await activity.getByRole("link", { name: /Spend request: GPU hours/u }).waitFor()
    assert.strictEqual(await page.getByLabel("Mode").inputValue(), "test", "Activity opens in the mode with data")
    const gpuRow = activity.getByRole("row", { name: /GPU hours/u })
    assert.strictEqual(await gpuRow.locator(".badge-test").innerText(), "Test", "a test-mode row is marked Test")
    await page.getByLabel("Status").selectOption("denied")
    await activity.getByRole("link", { name: /Spend request: team lunch/u }).waitFor()
    await page.getByRole("link", { name: /Spend request: GPU hours/u }).waitFor({ state: "detached" })
    await page.getByLabel("Status").selectOption("")
    await activity.getByRole("link", { name: /Spend request: GPU hours/u }).click()
    await page.getByRole("heading", { name: "Spend request to Acme Cloud", level: 1 }).waitFor()
    const trail = await page.getByRole("list", { name: "Decision trail" }).innerText()
    for (const step of ["requested", "approval required", "approved"]) assert.include(trail, step)
    assert.include(trail, "Over the key's approval threshold (limit $10.00)", "the policy's numbers are money")
    assert.notMatch(trail, /\b(1000|2500)\b/u, "no amount in minor units")
    assert.strictEqual(await page.locator(".facts .badge-test").innerText(), "Test", "the detail says Test")
    const movements = await page.getByRole("list", { name: "Ledger transactions" }).innerText()
    assert.include(movements, "-$25.00")
    assert.match(movements, /Spend request: (held|paid)/u, "each movement says what it means")
    assert.notMatch(movements, /post_pending|spend_request|\b[0-9a-f]{8}\b/u, "no raw codes, no id prefixes")
    const teamAccounts = await apiCall(server, "GET", "/treasury/accounts", { token: owner })
    const spendAccount = teamAccounts.body.data.find((a: { kind: string; mode: string }) => a.kind === "spend")
    assert.include(movements, spendAccount.name, "accounts are named as the Ledger names them")
    const amounts = await page.getByRole("list", { name: "Ledger transactions" }).locator("td.num").allInnerTexts()
    assert.isNotEmpty(amounts)
    for (const amount of amounts) assert.match(amount, /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/u, "every amount is money")

    await page.getByRole("link", { name: "Ledger" }).click()
    const accounts = page.getByRole("table", { name: "Accounts and balances" })
    await accounts.waitFor()
    assert.include(await accounts.innerText(), "$475.00")
    await accounts.getByRole("button").first().click()
    const transactions = page.getByRole("list", { name: "Ledger transactions" })
    await transactions.waitFor()
    assert.include(await transactions.innerText(), "-$25.00")
    assert.isTrue(
      await page.getByRole("radio", { name: "test" }).isChecked(),
      "spend per key opens in the mode where something was spent"
    )
    const chart = page.getByRole("img", { name: /^research-agent: \$25\.00 over 30 days/u })
    await chart.waitFor()
    assert.include(await page.getByRole("list", { name: "Spend per key" }).innerText(), "This month")
    await screenshot(page, "ledger")

    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("button", { name: "New spending key" }).click()
    const form = page.getByRole("region", { name: "New spending key" })
    await form.getByLabel("Key name").fill("billing-agent")
    await form.getByLabel("Approval threshold (USD)").fill("10")
    await form.getByRole("button", { name: "Create key" }).click()
    const secretBox = page.getByRole("region", { name: /New spending key "billing-agent" secret/u })
    await secretBox.waitFor()
    const secret = (await secretBox.locator("code").innerText()).trim()
    assert.match(secret, /^svc_test_/u)
    assert.strictEqual((await apiCall(server, "GET", "/v1/balance", { token: secret })).status, 200)
    await page.getByRole("article", { name: "Spending key billing-agent" }).waitFor()
    await screenshot(page, "settings")
    await page.reload()
    await page.getByRole("article", { name: "Spending key billing-agent" }).waitFor()
    assert.strictEqual(await page.getByText(secret).count(), 0, "the secret is shown once")

    await page.setViewportSize({ width: 390, height: 844 })
    for (const name of ["Approvals", "Activity", "Ledger", "Settings"]) {
      await page.getByRole("link", { name }).click()
      await page.getByRole("heading", { name, level: 1 }).waitFor()
      // A page still loading its data may be wider for a moment (seen on a loaded machine): judge the settled page.
      await page
        .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 5_000 })
        .catch(() => undefined)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map(
            (e) =>
              `${e.tagName.toLowerCase()}.${e.className}: ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? "").slice(0, 40)}`
          )
      )
      assert.isAtMost(
        overflow,
        0,
        `no sideways scrolling on ${name} at phone width; past the edge: ${wide.join(" | ")}`
      )
    }
    await context.close()
  }, 180_000)

  it("shows a member the inbox without approve buttons, and the API refuses the member too", async () => {
    const pending = await agentSpends(1_500, "Paper Supplies", "printer paper")
    await joinAsMember(server, outbox, { teamId, owner, email: memberEmail, name: "Max Member" })

    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, memberEmail)
    const card = page.getByRole("article", { name: "Spend request to Paper Supplies" })
    await card.waitFor()
    await card.getByText("research-agent").waitFor()
    assert.include(await card.innerText(), "Only owners and admins can decide approvals.")
    assert.strictEqual(await page.getByRole("button", { name: "Approve" }).count(), 0)
    assert.strictEqual(await page.getByRole("button", { name: "Deny" }).count(), 0)

    await page.route("**/treasury/approvals?*", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "simulated", message: "simulated outage" } })
      })
    )
    await page.getByText(/Could not refresh pending approvals/u).waitFor({ timeout: 15_000 })
    assert.isTrue(await card.isVisible(), "a failed refresh keeps the inbox on screen")
    await page.unroute("**/treasury/approvals?*")
    await page.getByText(/Could not refresh pending approvals/u).waitFor({ state: "detached", timeout: 15_000 })

    const refused = await page.evaluate(async (approvalId) => {
      const session = await fetch("/auth/session").then((r) => r.json())
      const answer = await fetch(`/treasury/approvals/${approvalId}/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": session.csrfToken },
        body: "{}"
      })
      return answer.status
    }, pending.approval.id)
    assert.strictEqual(refused, 403)
    const still = await apiCall(server, "GET", `/v1/spend-requests/${pending.id}`, { token: agentKey })
    assert.strictEqual(still.body.status, "pending_approval")

    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor()
    assert.strictEqual(await page.getByRole("button", { name: "New spending key" }).count(), 0)
    const members = page.getByRole("table", { name: "Members" })
    await members.getByText(memberEmail).waitFor()
    assert.include(await members.innerText(), ownerEmail)
    assert.strictEqual(await members.getByRole("combobox").count(), 0, "a member changes no roles")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Work e-mail").waitFor()
    await page.reload()
    await page.getByLabel("Work e-mail").waitFor()
    assert.strictEqual(await page.getByRole("navigation", { name: "Main" }).count(), 0, "signed out for good")
    await context.close()
  }, 180_000)

  it("lets an owner edit and revoke a key, issue a team API key and manage a webhook endpoint", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    const link = await signIn(page, ownerEmail)
    const elsewhere = await newContext(browser)
    const replay = await elsewhere.newPage()
    await replay.goto(link)
    await replay.getByRole("button", { name: "Sign in" }).click()
    await replay.getByRole("alert").waitFor()
    assert.strictEqual(await replay.getByRole("navigation", { name: "Main" }).count(), 0, "a link works once")
    await elsewhere.close()
    await page.getByRole("link", { name: "Settings" }).click()

    const key = page.getByRole("article", { name: "Spending key research-agent" })
    await key.getByRole("button", { name: "Edit policy" }).click()
    assert.strictEqual(await key.getByLabel("Approval threshold (USD)").inputValue(), "10.00")
    await key.getByLabel("Daily budget (USD)").fill("200")
    await key.getByRole("button", { name: "Save policy" }).click()
    await key.getByText("policy version 2").waitFor()
    const keys = await apiCall(server, "GET", "/treasury/spending-keys", { token: owner })
    const saved = keys.body.data.find((k: { name: string }) => k.name === "research-agent")
    assert.deepStrictEqual([saved.policy.approvalThreshold, saved.policy.dailyBudget], [1_000, 20_000])

    const spare = page.getByRole("article", { name: "Spending key billing-agent" })
    await spare.getByRole("button", { name: "Revoke" }).click()
    await spare.getByRole("group", { name: /Revoke billing-agent\?/u }).waitFor()
    assert.strictEqual(
      await page.evaluate(() => document.activeElement?.textContent),
      "Yes, revoke",
      "the confirmation takes the focus"
    )
    await page.keyboard.press("Enter")
    await spare.getByText(/revoked/u).waitFor()
    const billing = (await apiCall(server, "GET", "/treasury/spending-keys", { token: owner })).body.data.find(
      (k: { name: string }) => k.name === "billing-agent"
    )
    assert.isNotNull(billing.revokedAt)

    const teamKeys = page.getByRole("form", { name: "New team API key" })
    await teamKeys.getByLabel("Team key name").fill("reporting")
    await teamKeys.getByRole("checkbox", { name: /Read balances/u }).check()
    await teamKeys.getByRole("button", { name: "Create team key" }).click()
    const teamSecret = page.getByRole("region", { name: /New team API key "reporting" secret/u })
    await teamSecret.waitFor()
    assert.match((await teamSecret.locator("code").innerText()).trim(), /^svcteam_/u)

    const hooks = page.getByRole("form", { name: "New webhook endpoint" })
    await hooks.getByLabel("Endpoint URL").fill("https://hooks.example.com/svc")
    await hooks.getByLabel("Event types").fill("spend_request.approved, spend_request.denied")
    await hooks.getByRole("button", { name: "Add endpoint" }).click()
    const hookSecret = page.getByRole("region", { name: /signing secret of https:\/\/hooks\.example\.com\/svc/u })
    await hookSecret.waitFor()
    const firstSecret = (await hookSecret.locator("code").innerText()).trim()
    assert.match(firstSecret, /^whsec_/u)
    const endpoint = page.getByRole("article", { name: "Webhook endpoint https://hooks.example.com/svc" })
    await endpoint.getByRole("button", { name: "Rotate secret" }).click()
    await page.waitForFunction((previous) => !document.body.innerText.includes(previous), firstSecret)
    const asked = await agentSpends(3_000, "Acme Cloud", "more GPU hours")
    const decided = await apiCall(server, "POST", `/treasury/approvals/${asked.approval.id}/approve`, {
      token: owner,
      body: {}
    })
    assert.strictEqual(decided.status, 200, JSON.stringify(decided.body))
    const deliveryRows = endpoint.getByRole("row", { name: /spend_request\.approved/u })
    const deadline = Date.now() + 30_000
    while ((await deliveryRows.count()) === 0) {
      assert.isBelow(Date.now(), deadline, "the approval's event reaches the delivery log")
      await endpoint.getByRole("button", { name: /^(Deliveries|Hide deliveries)$/u }).click()
      await page.waitForTimeout(500)
    }
    await endpoint.getByRole("button", { name: "Redeliver spend_request.approved" }).first().click()
    await deliveryRows.nth(1).waitFor()
    await endpoint.getByRole("button", { name: "Disable" }).click()
    await endpoint.getByRole("button", { name: "Yes, disable" }).click()
    await endpoint.getByText(/disabled/u).waitFor()
    const listed = await apiCall(server, "GET", "/treasury/webhook-endpoints", { token: owner })
    assert.strictEqual(listed.body.data[0].enabled, false)
    await context.close()
  }, 180_000)

  /** Whether the element lies inside the viewport's width (nothing of it past either edge) and is shown. */
  const onScreen = async (page: Page, selector: string) =>
    page.evaluate((found) => {
      const element = document.querySelector(found)
      if (element === null) return `${found} missing`
      const box = element.getBoundingClientRect()
      const shown = box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden"
      return shown && box.left >= 0 && box.right <= window.innerWidth + 0.5
        ? "visible"
        : `${found} at ${Math.round(box.left)}..${Math.round(box.right)}`
    }, selector)

  it("freezes and unfreezes spending with a banner on every page; a refusal stays inside the card on a phone", async () => {
    await agentSpends(2_000, "Kite Tools", "a yearly licence for the team's diagramming tool")
    const context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, ownerEmail)
    await page.getByRole("link", { name: "Settings" }).click()
    const killSwitch = page.getByRole("form", { name: "Freeze spending" })
    await killSwitch.getByLabel("Why freeze").fill("an agent is looping on purchases")
    await killSwitch.getByRole("button", { name: "Freeze all spending" }).click()
    await killSwitch.getByRole("button", { name: "Yes, freeze" }).click()
    const banner = page.getByRole("status", { name: "Spending is frozen" })
    await banner.waitFor()
    assert.include(await banner.innerText(), "an agent is looping on purchases")
    assert.include(await banner.innerText(), ownerEmail, "the banner says who froze")
    const frozen = await apiCall(server, "GET", "/treasury/spend-freeze", { token: owner })
    assert.deepStrictEqual(
      frozen.body.data.map((f: { scope: string }) => f.scope),
      ["team"]
    )
    for (const name of ["Approvals", "Activity", "Ledger"]) {
      await page.getByRole("link", { name }).click()
      await page.getByRole("heading", { name, level: 1 }).waitFor()
      assert.isTrue(await banner.isVisible(), `the banner shows on ${name}`)
    }

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole("link", { name: "Approvals" }).click()
    const card = page.getByRole("article", { name: "Spend request to Kite Tools" })
    await card.getByRole("button", { name: "Approve" }).click()
    const refusal = card.getByRole("alert")
    await refusal.waitFor()
    assert.match(await refusal.innerText(), /frozen/iu, "the refusal says why")
    const layout = await card.evaluate((article) => {
      const box = article.getBoundingClientRect()
      const past = [...article.querySelectorAll("*")].filter((e) => {
        const inner = e.getBoundingClientRect()
        return inner.right > box.right + 0.5 || inner.left < box.left - 0.5
      })
      return { past: past.map((e) => e.tagName), overflow: article.scrollWidth - article.clientWidth }
    })
    assert.deepStrictEqual(layout, { past: [], overflow: 0 }, "the refusal stays inside the card")
    assert.strictEqual(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      0,
      "no sideways scrolling with the refusal shown"
    )

    await page.getByRole("link", { name: "Activity" }).click()
    await page
      .getByRole("table", { name: "Activity" })
      .getByRole("link", { name: /Spend request: a yearly/u })
      .waitFor()
    for (const cell of ['td[data-label="Amount"]', 'td[data-label="Status"]']) {
      assert.strictEqual(await onScreen(page, cell), "visible", "Activity shows amount and status at phone width")
    }
    assert.include(await page.locator('td[data-label="Amount"]').first().innerText(), "$20.00")
    await page.getByRole("link", { name: "Ledger" }).click()
    await page.getByRole("table", { name: "Accounts and balances" }).waitFor()
    assert.strictEqual(await onScreen(page, 'td[data-label="Available"]'), "visible", "Ledger shows Available")
    assert.match(await page.locator('td[data-label="Available"]').first().innerText(), /\$\d/u)
    await screenshot(page, "ledger-phone")

    await banner.getByRole("button", { name: "Unfreeze spending" }).click()
    await banner.waitFor({ state: "detached" })
    const lifted = await apiCall(server, "GET", "/treasury/spend-freeze", { token: owner })
    assert.deepStrictEqual(lifted.body.data, [], "unfrozen")
    await page.getByRole("link", { name: "Approvals" }).click()
    await card.getByRole("button", { name: "Approve" }).click()
    await page
      .getByRole("list", { name: "Decided approvals" })
      .getByRole("article", { name: "Spend request to Kite Tools" })
      .waitFor()
    await context.close()
  }, 180_000)
})

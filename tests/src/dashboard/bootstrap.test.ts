import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Browser } from "playwright-core"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { mailOutbox } from "../support/MailOutbox.ts"
import { apiCall, launchBrowser, newContext, publicBaseUrl, screenshot, signInThroughPage } from "./BrowserHarness.ts"

/**
 * The first person of a new deployment, in a real browser: a new address signs up with the mailed link (open sign-up,
 * the default), has no team, creates it (one team however often the button is pressed), invites a colleague, and
 * makes a personal token for the CLI, shown once.
 */
describe("starting a team from the dashboard in chromium", () => {
  const processes = apiProcesses()
  let server: Running
  let browser: Browser
  let outbox: Awaited<ReturnType<typeof mailOutbox>>
  const suffix = crypto.randomUUID().slice(0, 8)
  const founderEmail = `founder-${suffix}@example.com`
  const colleagueEmail = `colleague-${suffix}@example.com`

  beforeAll(async () => {
    outbox = await mailOutbox()
    server = await processes.start({ MAIL_OUTBOX_DIR: outbox.dir })
    browser = await launchBrowser()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await outbox?.remove()
  })

  it("creates the team, invites a colleague and makes a personal token that works until revoked", async () => {
    const context = await newContext(browser)
    await context.grantPermissions(["clipboard-read", "clipboard-write"])
    const page = await context.newPage()
    await signInThroughPage(page, server, outbox, founderEmail)
    /** A call with the page's session cookie (GET only: it sends no CSRF token). */
    const asFounder = async (path: string) => {
      const response = await context.request.get(`${publicBaseUrl(server)}${path}`)
      return { status: response.status(), body: await response.json() }
    }
    const me = await asFounder("/users/me")
    assert.deepStrictEqual([me.status, me.body.email, me.body.teamId], [200, founderEmail, null], "new, no team")

    await page.getByRole("heading", { name: "Create your team" }).waitFor()
    const form = page.getByRole("form", { name: "Create a team" })
    const create = form.getByRole("button", { name: "Create team" })
    await create.click()
    await form.getByText("Enter the team's name.").waitFor()
    assert.strictEqual(await form.getByLabel("Team name").getAttribute("aria-invalid"), "true")
    await form.getByLabel("Team name").fill("Founders Inc")
    await form.getByLabel("Base currency").fill("XYZ")
    await create.click()
    await form.getByText("expected a known ISO 4217 currency code").waitFor()
    assert.strictEqual(await form.getByLabel("Base currency").getAttribute("aria-invalid"), "true")
    assert.strictEqual(await form.getByLabel("Team name").getAttribute("aria-invalid"), null, "the name is fine")
    assert.strictEqual((await asFounder("/teams")).body.data.length, 0)
    await screenshot(page, "create-team")

    await form.getByLabel("Base currency").fill("USD")
    await create.dblclick()
    await page.getByRole("heading", { name: "Settings" }).waitFor()
    await page.getByText("Founders Inc is ready and you are its owner.").waitFor()
    assert.include(await page.locator(".who").innerText(), "Founders Inc (owner)")
    const teams = await asFounder("/teams")
    assert.deepStrictEqual(
      teams.body.data.map((t: { name: string; role: string }) => [t.name, t.role]),
      [["Founders Inc", "owner"]],
      "a double click creates one team"
    )
    const teamId: string = teams.body.data[0].id

    const invite = page.getByRole("form", { name: "Invite a member" })
    await invite.getByLabel("Invitee e-mail").fill(colleagueEmail)
    await invite.getByLabel("Invitee role").selectOption("admin")
    await invite.getByRole("button", { name: "Send invitation" }).click()
    await invite.getByText(`Invitation sent to ${colleagueEmail}.`).waitFor()
    await outbox.waitFor(colleagueEmail, /(invited to join Founders Inc as admin)/u)
    const invitationLink = await outbox.waitFor(
      colleagueEmail,
      /(https?:\/\/\S+\/dashboard\/invitations#invitation=\S+)/u
    )
    const pending = page.getByRole("table", { name: "Pending invitations" })
    assert.include(await pending.getByRole("row", { name: new RegExp(colleagueEmail, "u") }).innerText(), "admin")
    const invites = await asFounder(`/teams/${teamId}/invites`)
    assert.deepStrictEqual(
      invites.body.data.map((i: { email: string; role: string }) => [i.email, i.role]),
      [[colleagueEmail, "admin"]]
    )

    const tokens = page.getByRole("region", { name: "Personal tokens" })
    const newToken = tokens.getByRole("form", { name: "New personal token" })
    await newToken.getByRole("button", { name: "Create personal token" }).click()
    await newToken.getByText("Name the token, so you know it later.").waitFor()
    await newToken.getByLabel("Token name").fill("work laptop")
    await newToken.getByRole("button", { name: "Create personal token" }).click()
    const shown = tokens.getByRole("region", { name: 'New personal token "work laptop" secret' })
    await shown.waitFor()
    const secret = await shown.locator("code").innerText()
    assert.match(secret, /^svcsess_[A-Za-z0-9_-]{43}$/u)
    await shown.getByRole("button", { name: "Copy secret" }).click()
    await shown.getByRole("button", { name: "Copied" }).waitFor()
    assert.strictEqual(await page.evaluate(() => navigator.clipboard.readText()), secret)
    const row = tokens.getByRole("row", { name: /work laptop/u })
    await row.waitFor()
    assert.include(await row.innerText(), `svcsess_…${secret.slice(-4)}`)
    await screenshot(page, "personal-token")

    const asToken = await apiCall(server, "GET", "/users/me", { token: secret })
    assert.strictEqual(asToken.status, 200, JSON.stringify(asToken.body))
    assert.deepStrictEqual([asToken.body.email, asToken.body.teamId], [founderEmail, teamId])

    await page.reload()
    await tokens.getByRole("row", { name: /work laptop/u }).waitFor()
    assert.notInclude(await page.content(), secret, "the secret is shown once, never again")
    assert.strictEqual(await tokens.getByRole("region", { name: /secret/u }).count(), 0)

    await tokens
      .getByRole("row", { name: /work laptop/u })
      .getByRole("button", { name: "Revoke" })
      .click()
    await tokens.getByRole("button", { name: "Yes, revoke" }).click()
    await tokens.getByText("No personal tokens.").waitFor()
    assert.strictEqual((await apiCall(server, "GET", "/users/me", { token: secret })).status, 401)
    await context.close()

    // The colleague, new here too, opens the invitation, signs up with the mailed link and joins as an admin.
    const theirs = await newContext(browser)
    const colleague = await theirs.newPage()
    await colleague.goto(invitationLink)
    await colleague.getByLabel("Work e-mail").waitFor()
    assert.notInclude(colleague.url(), "invitation=", "the invitation leaves the address bar")
    await signInThroughPage(colleague, server, outbox, colleagueEmail)
    const invitation = colleague.getByRole("region", { name: "You are invited to a team" })
    await invitation.getByRole("button", { name: "Accept invitation" }).click()
    await colleague.getByText("Founders Inc (admin)").waitFor()
    await colleague.getByRole("heading", { name: "Approvals" }).waitFor()
    assert.strictEqual(await invitation.count(), 0, "the invitation is gone once accepted")
    await colleague.getByRole("link", { name: "Settings" }).click()
    await colleague.getByRole("table", { name: "Members" }).getByText(founderEmail).waitFor()
    assert.strictEqual(await colleague.getByRole("table", { name: "Pending invitations" }).count(), 0)
    const members = await (await theirs.request.get(`${publicBaseUrl(server)}/teams/${teamId}/members`)).json()
    assert.sameMembers(
      members.data.map((m: { email: string; role: string }) => `${m.email} ${m.role}`),
      [`${founderEmail} owner`, `${colleagueEmail} admin`]
    )
    await theirs.close()
  }, 180_000)
})

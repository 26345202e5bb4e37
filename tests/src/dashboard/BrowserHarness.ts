import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert } from "@effect/vitest"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import type { Running } from "../support/ApiProcess.ts"
import type { mailOutbox } from "../support/MailOutbox.ts"
import { sessionToken } from "../support/Session.ts"

/** Debian's chromium, as CI installs it. */
const CHROMIUM = "/usr/bin/chromium"

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/** Where the tests leave their screenshots (git-ignored). */
const SCREENSHOTS = fileURLToPath(new URL("../../../.data/screenshots/", import.meta.url))

/** One headless chromium for a test file. */
export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })

/** A fresh browser profile (its own cookies) with a laptop-sized window. */
export const newContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width: 1100, height: 820 }, locale: "en-US", timezoneId: "UTC" })

/** Saves a full-page screenshot under `.data/screenshots/<name>.png`. */
export const screenshot = async (page: Page, name: string) => {
  await mkdir(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

/** A JSON call to the running server, with a bearer credential when given. */
export const apiCall = async (
  server: Running,
  method: string,
  path: string,
  options: { readonly token?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
): Promise<{ status: number; body: any }> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text) }
}

/** The server's PUBLIC_BASE_URL as it defaults (localhost), the origin its mailed links and cookies belong to. */
export const publicBaseUrl = (server: Running) => server.baseUrl.replace("127.0.0.1", "localhost")

/** Signs in through the page: asks for a link, opens the mailed link, presses "Sign in"; answers the link. */
export const signInThroughPage = async (
  page: Page,
  server: Running,
  outbox: Awaited<ReturnType<typeof mailOutbox>>,
  email: string
) => {
  const before = (await outbox.messages()).length
  await page.goto(`${publicBaseUrl(server)}/dashboard/`)
  await page.getByLabel("Work e-mail").fill(email)
  await page.getByRole("button", { name: "Email me a sign-in link" }).click()
  // The server mails nothing (MAIL_OUTBOX_DIR): the page says where the link is written instead.
  const status = page.getByRole("status").filter({ hasText: "In local mode the link is written to" })
  await status.waitFor()
  assert.include(await status.innerText(), `In local mode the link is written to a JSON file in ${outbox.dir}`)
  assert.notInclude(await status.innerText(), "Check your inbox")
  const link = await outbox.waitFor(email, /(https?:\/\/\S+\/dashboard\/sign-in#token=\S+)/u, before)
  await page.goto(link)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("navigation", { name: "Main" }).waitFor()
  assert.notInclude(page.url(), "token=", "the token leaves the address bar")
  return link
}

/**
 * Makes `email` a member of `teamId` the way a person joins: the owner invites them (the invitation mailed to the
 * outbox), and they accept it with a session of their own.
 */
export const joinAsMember = async (
  server: Running,
  outbox: Awaited<ReturnType<typeof mailOutbox>>,
  invitation: { readonly teamId: string; readonly owner: string; readonly email: string; readonly name: string }
) => {
  const before = (await outbox.messages()).length
  const invite = await apiCall(server, "POST", `/teams/${invitation.teamId}/invites`, {
    token: invitation.owner,
    body: { email: invitation.email, role: "member" }
  })
  assert.strictEqual(invite.status, 201, JSON.stringify(invite.body))
  const token = await outbox.waitFor(invitation.email, /"token": "([^"]+)"/u, before)
  const accepted = await apiCall(server, "POST", "/invites/accept", {
    token: sessionToken({ email: invitation.email, name: invitation.name }),
    body: { token }
  })
  assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
}

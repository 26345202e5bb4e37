import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert } from "@effect/vitest"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import type { Running } from "../support/ApiProcess.ts"

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

/** A directory the server writes its mail into (`MAIL_OUTBOX_DIR`), and a reader of what arrived. */
export const mailOutbox = async () => {
  const dir = await mkdtemp(join(tmpdir(), "svc-outbox-"))
  const messages = async () => {
    const names = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort()
    return Promise.all(
      names.map(
        async (name) =>
          JSON.parse(await readFile(join(dir, name), "utf8")) as { to: string; subject: string; text: string }
      )
    )
  }
  /** The first capture of `pattern` in the newest mail to `to` that has it, waiting up to 15 s for it to arrive. */
  const waitFor = async (to: string, pattern: RegExp, after = 0) => {
    const deadline = Date.now() + 15_000
    for (;;) {
      const found = (await messages())
        .slice(after)
        .filter((m) => m.to === to)
        .map((m) => pattern.exec(m.text)?.[1])
        .findLast((match) => match !== undefined)
      if (found !== undefined) return found
      if (Date.now() > deadline) assert.fail(`no mail to ${to} matching ${pattern}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { dir, messages, waitFor, remove: () => rm(dir, { recursive: true, force: true }) }
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

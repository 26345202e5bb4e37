import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"

const html = { headers: { accept: "text/html" } }
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe("serving the dashboard at /dashboard", () => {
  let base = ""
  let dir = ""
  let app: ReturnType<typeof inProcessApp>
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "svc-dashboard-"))
    dir = join(base, "build")
    await mkdir(join(dir, "assets"), { recursive: true })
    await writeFile(join(base, "secret.txt"), "outside the build")
    await writeFile(
      join(dir, "index.html"),
      '<!doctype html><script type="module" src="/dashboard/assets/app-1a2b.js"></script>'
    )
    await writeFile(join(dir, "assets", "app-1a2b.js"), "console.log('dashboard')")
    app = inProcessApp({ ...testConfig, dashboardDir: dir })
  })
  afterAll(async () => {
    await app.dispose()
    await rm(base, { recursive: true, force: true })
  })

  it("answers the app's page for its own routes, revalidated on every load, under a policy with no inline script", async () => {
    for (const path of ["/dashboard/", "/dashboard/approvals", "/dashboard/activity/spend_request/abc"]) {
      const page = await app.rawCall(path, html)
      assert.strictEqual(page.status, 200, path)
      assert.include(text(page.bytes), "app-1a2b.js", path)
      assert.strictEqual(page.headers.get("content-type"), "text/html; charset=utf-8")
      assert.strictEqual(page.headers.get("cache-control"), "no-cache")
      const policy = page.headers.get("content-security-policy") ?? ""
      assert.include(policy, "script-src 'self';")
      assert.notInclude(policy, "unsafe-inline")
      assert.include(policy, "frame-ancestors 'none'")
      assert.strictEqual(page.headers.get("x-frame-options"), "DENY")
    }
    const bare = await app.rawCall("/dashboard", html)
    assert.deepStrictEqual([bare.status, bare.headers.get("location")], [301, "/dashboard/"])
  })

  it("caches hashed assets for good and finds no file outside the build", async () => {
    const asset = await app.rawCall("/dashboard/assets/app-1a2b.js")
    assert.strictEqual(asset.status, 200)
    assert.strictEqual(asset.headers.get("cache-control"), "public, max-age=31536000, immutable")
    assert.match(asset.headers.get("content-type") ?? "", /^text\/javascript/u)
    assert.strictEqual((await app.rawCall("/dashboard/assets/gone-0000.js")).status, 404)
    for (const path of ["/dashboard/..%2fsecret.txt", "/dashboard/assets/..%2f..%2fsecret.txt"]) {
      const outside = await app.rawCall(path)
      assert.notStrictEqual(outside.status, 200, path)
      assert.notInclude(text(outside.bytes), "outside the build", path)
    }
  })

  it("leaves the API reference page its own policy", async () => {
    const docs = await app.rawCall("/docs")
    assert.include(docs.headers.get("content-security-policy") ?? "", "'unsafe-inline'")
  })
})

describe("a server without a built dashboard", () => {
  const app = inProcessApp({ ...testConfig, dashboardDir: join(tmpdir(), `svc-no-dashboard-${crypto.randomUUID()}`) })
  afterAll(() => app.dispose())

  it("answers 503 saying how to build it", async () => {
    for (const path of ["/dashboard", "/dashboard/", "/dashboard/approvals"]) {
      const answer = await app.rawCall(path, html)
      assert.strictEqual(answer.status, 503, path)
      assert.include(text(answer.bytes), "npm run build:dashboard")
    }
  })
})

describe("the production build (npm run build:dashboard)", () => {
  const DIST = fileURLToPath(new URL("../../../apps/dashboard/dist/", import.meta.url))

  it("loads only its own script files, has no Node-only import, and stays small", async () => {
    const index = await readFile(join(DIST, "index.html"), "utf8")
    const scripts = [...index.matchAll(/<script\b([^>]*)>/gu)].map((m) => m[1] ?? "")
    assert.isAbove(scripts.length, 0)
    for (const attributes of scripts) assert.match(attributes, /\bsrc="\/dashboard\/assets\//u, "no inline script")
    const files = (await readdir(join(DIST, "assets"))).filter((name) => name.endsWith(".js"))
    let gzipped = 0
    for (const name of files) {
      const code = await readFile(join(DIST, "assets", name))
      assert.notMatch(code.toString("utf8"), /(from|import\(|require\()\s*["']node:/u, name)
      gzipped += gzipSync(code).length
    }
    assert.isBelow(gzipped, 200 * 1024, `the scripts gzip to ${gzipped} bytes`)
  })
})

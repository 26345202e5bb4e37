import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"

const release = {
  version: "1.4.0",
  notes: "Faster approvals inbox",
  pub_date: "2026-11-20T10:00:00Z",
  platforms: {
    "darwin-aarch64": { url: "https://downloads.example.com/svc-1.4.0-aarch64.app.tar.gz", signature: "sig-mac-arm" },
    "windows-x86_64": { url: "https://downloads.example.com/svc-1.4.0-x64-setup.nsis.zip", signature: "sig-win" }
  }
}

const file = join(await mkdtemp(join(tmpdir(), "desktop-release-")), "release.json")
await writeFile(file, JSON.stringify(release))
const app = inProcessApp(testConfig, { DESKTOP_RELEASE_FILE: file })
const bare = inProcessApp(testConfig, { DESKTOP_RELEASE_FILE: "" })
afterAll(async () => {
  await app.dispose()
  await bare.dispose()
})

describe("the desktop updater manifest", () => {
  it("offers a newer release to an older client: version, notes, date, its platform's URL and signature", async () => {
    const answer = await app.call("GET", "/desktop/update/darwin/aarch64/1.3.9")
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body, {
      version: "1.4.0",
      notes: "Faster approvals inbox",
      pub_date: "2026-11-20T10:00:00Z",
      url: release.platforms["darwin-aarch64"].url,
      signature: "sig-mac-arm"
    })
    const beta = await app.call("GET", "/desktop/update/windows/x86_64/1.4.0-beta.2")
    assert.strictEqual(beta.status, 200, "a pre-release precedes its release")
    assert.strictEqual(beta.body.signature, "sig-win")
  })

  it("answers 204 when the client is current or ahead, or its platform has no build", async () => {
    for (const path of [
      "/desktop/update/darwin/aarch64/1.4.0",
      "/desktop/update/darwin/aarch64/1.10.0",
      "/desktop/update/darwin/aarch64/2.0.0-rc.1",
      "/desktop/update/linux/x86_64/1.0.0"
    ]) {
      const answer = await app.rawCall(path)
      assert.strictEqual(answer.status, 204, path)
      assert.strictEqual(answer.bytes.length, 0, path)
    }
  })

  it("answers 204 when no release is configured", async () => {
    assert.strictEqual((await bare.rawCall("/desktop/update/darwin/aarch64/0.1.0")).status, 204)
  })

  it("refuses a bad target, arch or version with a 400 naming the field", async () => {
    for (const [path, field] of [
      ["/desktop/update/beos/aarch64/1.0.0", "target"],
      ["/desktop/update/darwin/sparc/1.0.0", "arch"],
      ["/desktop/update/darwin/aarch64/1.0", "currentVersion"],
      ["/desktop/download/darwin/mips", "arch"]
    ] as const) {
      const answer = await app.call("GET", path)
      assert.strictEqual(answer.status, 400, path)
      assert.strictEqual(answer.body.code, 400)
      assert.include(JSON.stringify(answer.body.details), field, path)
    }
  })
})

describe("the desktop download", () => {
  it("redirects to the latest build of the platform", async () => {
    const answer = await app.rawCall("/desktop/download/windows/x86_64", { redirect: "manual" })
    assert.strictEqual(answer.status, 302)
    assert.strictEqual(answer.headers.get("location"), release.platforms["windows-x86_64"].url)
  })

  it("answers 404 not_found for a platform without a build, and when no release is configured", async () => {
    const missing = await app.call("GET", "/desktop/download/linux/x86_64")
    assert.strictEqual(missing.status, 404)
    assert.strictEqual(missing.body.error, "not_found")
    assert.strictEqual((await bare.call("GET", "/desktop/download/darwin/aarch64")).status, 404)
  })

  it("both are described under the Desktop tag", async () => {
    const document = (await app.call("GET", "/openapi.json")).body
    const update = document.paths["/desktop/update/{target}/{arch}/{currentVersion}"].get
    assert.deepStrictEqual(update.tags, ["Desktop"])
    assert.containsAllKeys(update.responses, ["200", "204", "400"])
    const download = document.paths["/desktop/download/{target}/{arch}"].get
    assert.deepStrictEqual(download.tags, ["Desktop"])
    assert.containsAllKeys(download.responses, ["302", "404"])
  })
})

describe("the release file", () => {
  it("stops the start when it does not hold a release, naming the variable and the field", async () => {
    const bad = join(await mkdtemp(join(tmpdir(), "desktop-release-")), "release.json")
    await writeFile(bad, JSON.stringify({ ...release, version: "v1.4" }))
    const broken = inProcessApp(testConfig, { DESKTOP_RELEASE_FILE: bad })
    try {
      const failure = await broken.call("GET", "/health").then(
        () => undefined,
        (error: unknown) => String(error)
      )
      assert.isDefined(failure, "the app did not start")
      assert.include(failure, "DESKTOP_RELEASE_FILE")
      assert.include(failure, "version")
    } finally {
      await broken.dispose().catch(() => undefined)
    }
  })
})

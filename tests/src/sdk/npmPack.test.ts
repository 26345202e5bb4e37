import { execFile, execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"
import { loopbackServer } from "../support/LoopbackServer.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const app = inProcessApp(testConfig)
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)
const scratch = mkdtempSync(join(tmpdir(), "svc-sdk-consumer-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The consumer's lockfile pins `effect` to the workspace's version, so npm takes it from the cache `npm ci` filled. */
const scratchProject = () => {
  const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8"))
  const effect = lock.packages["node_modules/effect"] as { version: string; integrity: string }
  const dependencies = { effect: effect.version }
  writeFileSync(
    join(scratch, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies })
  )
  writeFileSync(
    join(scratch, "package-lock.json"),
    JSON.stringify({
      name: "consumer",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "consumer", dependencies },
        "node_modules/effect": {
          version: effect.version,
          resolved: `https://registry.npmjs.org/effect/-/effect-${effect.version}.tgz`,
          integrity: effect.integrity
        }
      }
    })
  )
}

const consumerScript = `
import { ApiError, createClient } from "@svc/sdk"
const [baseUrl, key] = process.argv.slice(2)
const sdk = createClient({ baseUrl, token: key })
const health = await sdk.system.health()
const spend = await sdk.spendRequests.create({
  payload: { amount: 1999, currency: "USD", merchant: { name: "OpenAI", category: "software" }, purpose: "API tokens" }
})
const unauthorized = await createClient({ baseUrl, token: "svc_test_not_a_key" }).accounts.balance()
  .then(() => null, (e) => ({ isApiError: e instanceof ApiError, status: e.status, error: e.error }))
console.log(JSON.stringify({ health, spend, unauthorized }))
`

const consumerTypes = `
import { createClient, type SpendRequest, type WebhookEvent, verifyWebhook } from "@svc/sdk"
const sdk = createClient({ baseUrl: "http://localhost:3000", token: "svc_test_x" })
export const spend: Promise<SpendRequest> = sdk.spendRequests.create({
  payload: { amount: 1999, currency: "USD", merchant: { name: "OpenAI" }, purpose: "API tokens" }
})
export const amountOf = (event: WebhookEvent): number | null =>
  event.type === "spend_request.approved" ? event.data.amount : null
export const verified: Promise<WebhookEvent> = verifyWebhook("whsec_a2V5", {}, "{}")
// @ts-expect-error the contract's request shape is enforced: amount is a number
sdk.spendRequests.create({ payload: { amount: "19.99", currency: "USD", merchant: { name: "x" }, purpose: "y" } })
`

describe("the SDK as an npm package", () => {
  it("builds, packs and installs offline into a plain project whose script calls a real server", {
    timeout: 240_000
  }, async () => {
    const tarball = execFileSync(process.execPath, [`${root}scripts/build-sdk.ts`, "--pack"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1)!
    scratchProject()
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: scratch, stdio: "pipe" })

    const owner = createClient({ baseUrl: server.baseUrl(), token: await sessionToken() })
    await owner.teams.create({ payload: { name: "Acme" } })
    const key = await owner.agentKeys.createSpendingKey({ payload: { name: "agent", mode: "test", policy: {} } })
    const agent = createClient({ baseUrl: server.baseUrl(), token: key.secret })
    await agent.testHelpers.deposit({ payload: { amount: 10_000, currency: "USD" } })

    writeFileSync(join(scratch, "consumer.mjs"), consumerScript)
    // Asynchronously: the server answering the script runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ["consumer.mjs", server.baseUrl(), key.secret], {
      cwd: scratch,
      timeout: 30_000
    })
    const answer = JSON.parse(stdout)
    assert.deepStrictEqual(answer.health, { status: "ok" })
    assert.deepStrictEqual(
      [answer.spend.object, answer.spend.status, answer.spend.amount],
      ["spend_request", "approved", 1999]
    )
    assert.deepStrictEqual(await agent.spendRequests.get({ params: { id: answer.spend.id } }), answer.spend)
    assert.deepStrictEqual(answer.unauthorized, { isApiError: true, status: 401, error: "unauthorized" })

    writeFileSync(join(scratch, "consumer.ts"), consumerTypes)
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
          lib: ["ES2023", "DOM"]
        },
        files: ["consumer.ts"]
      })
    )
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", scratch], { stdio: "pipe" })
  })
})

import { execFileSync } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { createInvoice, sendInvoice, teamWithCustomer } from "../finance/invoices/InvoicesSetup.ts"
import { apiProcesses, type Running, startApi } from "../support/ApiProcess.ts"
import { clientOf } from "../support/InProcessApp.ts"
import { API_BUNDLE } from "../support/Processes.ts"

/** A client of a running process, in the shape the in-process suites use. */
const clientAt = (server: Running) =>
  clientOf((request) => {
    const url = new URL(request.url)
    return fetch(new Request(`${server.baseUrl}${url.pathname}${url.search}`, request))
  })

/**
 * The bundle `npm start` builds and runs (ADR 0063), started as a deployment starts it: the paths that load a module
 * on first use (the invoice PDF's pdfkit and fonts, the EVM client, the embedded database) and the ones served from
 * files (the reference page, the dashboard) work from it as they do from the sources.
 */
describe("the service's bundle", () => {
  const processes = apiProcesses()
  let server: Running

  beforeAll(async () => {
    execFileSync(process.execPath, ["scripts/build-server.ts"], { stdio: "pipe" })
    server = await processes.start({}, "ready", API_BUNDLE)
  }, 180_000)

  it("serves spend requests, an invoice's PDF, the reference page and the dashboard", async () => {
    const app = clientAt(server)
    const { token, customerId } = await teamWithCustomer(app)
    const key = await app.call("POST", "/treasury/spending-keys", {
      token,
      body: { name: "agent", mode: "test", policy: {} }
    })
    assert.strictEqual(key.status, 201)
    const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
      token: key.body.secret,
      body: { amount: 10_000, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(deposit.status, 201)
    const spend = await app.call("POST", "/v1/spend-requests", {
      token: key.body.secret,
      body: { amount: 1_250, currency: "USD", merchant: { name: "Vercel" }, purpose: "hosting" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(spend.status, 201, JSON.stringify(spend.body))
    assert.strictEqual(spend.body.status, "approved")

    const invoice = await sendInvoice(app, token, (await createInvoice(app, token, customerId)).id)
    const pdf = await app.rawCall(`/files/download/invoice?token=${invoice.token}`)
    assert.strictEqual(pdf.status, 200)
    assert.strictEqual(pdf.headers.get("content-type"), "application/pdf")
    assert.strictEqual(Buffer.from(pdf.bytes.subarray(0, 5)).toString(), "%PDF-")

    const docs = await fetch(`${server.baseUrl}/docs`)
    assert.strictEqual(docs.status, 200)
    assert.include(await docs.text(), "createApiReference")
    const dashboard = await fetch(`${server.baseUrl}/dashboard`)
    assert.strictEqual(dashboard.status, 200)
    assert.include(await dashboard.text(), "<div id=")
  }, 60_000)

  it("builds the EVM rail, loading its client when CRYPTO_RAIL=evm chooses it, and refuses a bad key naming it", async () => {
    const evm = await processes.start(
      { CRYPTO_RAIL: "evm", CRYPTO_EVM_PRIVATE_KEY: `0x${"11".repeat(32)}` },
      "ready",
      API_BUNDLE
    )
    assert.strictEqual((await fetch(`${evm.baseUrl}/health/ready`)).status, 200)
    evm.child.kill("SIGTERM")

    const refused = await processes
      .start({ CRYPTO_RAIL: "evm", CRYPTO_EVM_PRIVATE_KEY: "0x1234" }, "listening", API_BUNDLE)
      .then(
        () => "started",
        (error: Error) => error.message
      )
    assert.include(refused, "CRYPTO_EVM_PRIVATE_KEY must be 0x and 64 hex digits")
  }, 120_000)

  describe("on the embedded database", () => {
    let dataDir: string
    let embedded: Running | undefined

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), "svc-bundle-pglite-"))
    })

    afterAll(async () => {
      embedded?.child.kill("SIGKILL")
      await rm(dataDir, { recursive: true, force: true })
    })

    it("starts PGlite, migrates it and serves, as `npm start` does on a fresh machine", async () => {
      embedded = await startApi({ PGLITE_DATA_DIR: dataDir }, "ready", API_BUNDLE)
      assert.include(embedded.output(), "embedded Postgres (PGlite)")
      const team = await clientAt(embedded).call("GET", "/health/ready")
      assert.strictEqual(team.status, 200)
    }, 180_000)
  })
})

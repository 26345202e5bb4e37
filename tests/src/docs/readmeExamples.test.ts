import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { assert, describe, it } from "@effect/vitest"
import { apiProcesses } from "../support/ApiProcess.ts"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

/** The `sh` code blocks of the README, in order. */
const shellBlocks = (markdown: string): Array<string> =>
  [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gmu)].map((match) => match[1] ?? "")

/**
 * The README's shell examples as one script, run as a reader pastes them one after the other into one shell, except
 * for what the test does itself: the blocks that install, start and test the project (those running `npm test`) are
 * not run, the server is the test's own (so `npm start &` is left out and `localhost:3000` is its address), and
 * every `curl` fails on an HTTP error, so an example that only prints an error fails the test.
 */
const scriptOf = (blocks: ReadonlyArray<string>, port: number) =>
  [
    "set -euo pipefail",
    'curl() { command curl --fail-with-body "$@"; echo; }',
    ...blocks
      .filter((block) => !/\bnpm test\b/u.test(block))
      .map((block) => block.replace(/^npm start &.*$/gmu, ":").replaceAll("localhost:3000", `127.0.0.1:${port}`))
  ].join("\n")

describe("the README's examples", () => {
  const processes = apiProcesses()

  it("run as pasted, in order, against a fresh server", async () => {
    const server = await processes.start({ SESSION_JWT_SECRET: "dev-only-secret" })
    const port = Number(new URL(server.baseUrl).port)
    const script = scriptOf(shellBlocks(await readFile(join(ROOT, "README.md"), "utf8")), port)
    const home = await mkdtemp(join(tmpdir(), "svc-readme-"))
    try {
      const run = await promisify(execFile)("bash", ["-c", script], {
        cwd: ROOT,
        // PORT as in the shell that started the server: `svc login` without --base-url finds it by PORT.
        env: { ...process.env, XDG_CONFIG_HOME: home, SVC_TOKEN: "", SVC_BASE_URL: "", PORT: String(port) },
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024
      }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error)
      const output = `${run.stdout ?? ""}\n${run.stderr ?? ""}`
      assert.notProperty(run, "code", output.slice(-4000))
      assert.include(output, '"status":"approved"', "the first spend request")
      assert.include(output, '"status":"completed"', "the accepted transfer")
      assert.include(output, '"status":"canceled"', "the canceled transfer")
      assert.include(output, '"refundedAmount":300', "the test-mode checkout's refund")
      assert.include(output, '"capturedAmount":2300', "the test-mode checkout's clearing")
      assert.include(output, '"declineReason":"card_inactive"', "the single-use card's second authorization")
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  }, 300_000)
})

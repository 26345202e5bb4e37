import { execFile } from "node:child_process"
import { createServer, type Server } from "node:http"
import { Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, assert, beforeAll } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { freePort } from "../support/ApiProcess.ts"
import { clientOf, testConfig } from "../support/InProcessApp.ts"

/** Relays a Node request to a web handler and streams its answer back (MCP answers may be event streams). */
const relay = (handler: (request: Request) => Promise<Response>, baseUrl: string) =>
  createServer(async (req, res) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
    const response = await handler(
      new Request(`${baseUrl}${req.url}`, {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) })
      })
    )
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body === null) res.end()
    else Readable.fromWeb(response.body as never).pipe(res)
  })

/**
 * The whole service on the test database (real Postgres with DATABASE_URL, the embedded one without), served on a
 * loopback port that is also its PUBLIC_BASE_URL, for the file's tests.
 */
export const serviceOnLoopback = () => {
  let baseUrl = ""
  let server: Server | undefined
  let dispose: (() => Promise<void>) | undefined
  const runtime = ManagedRuntime.make(TestDatabase)
  let app: ReturnType<typeof clientOf> | undefined
  beforeAll(async () => {
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    const database = await runtime.runPromise(Effect.context<SqlClient.SqlClient>())
    const web = HttpRouter.toWebHandler(
      appOnPostgres({ ...testConfig, publicBaseUrl: baseUrl }).pipe(
        Layer.provide(Layer.succeedContext(database)),
        Layer.provide(HttpServer.layerServices)
      ),
      { disableLogger: true }
    )
    dispose = web.dispose
    app = clientOf(web.handler)
    server = relay(web.handler, baseUrl)
    await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve))
  }, 120_000)
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    await dispose?.()
    await runtime.dispose()
  })
  return {
    baseUrl: () => baseUrl,
    app: () => {
      assert.isDefined(app)
      return app as ReturnType<typeof clientOf>
    }
  }
}

const CLI = fileURLToPath(new URL("../../../apps/cli/src/main.ts", import.meta.url))

/** The MCP host configuration `svc mcp --print-config` prints for this checkout and `baseUrl`. */
export const printedHostConfig = async (
  baseUrl: string
): Promise<{ command: string; args: Array<string>; env: Record<string, string> }> => {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, "mcp", "--print-config"], {
    env: { ...process.env, SVC_BASE_URL: baseUrl }
  })
  return JSON.parse(stdout).mcpServers.svc
}

/** An MCP client of `svc mcp` started as the printed host configuration says, calling `baseUrl` as `token`. */
export const stdioClient = async (baseUrl: string, token: string) => {
  const server = await printedHostConfig(baseUrl)
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...(process.env as Record<string, string>), ...server.env, SVC_TOKEN: token },
    stderr: "pipe"
  })
  const client = new Client({ name: "svc-tests", version: "0.0.1" })
  await client.connect(transport)
  return client
}

/** What a tool call answered: the structured content on success, else the tool error's JSON body. */
export interface ToolAnswer {
  readonly isError: boolean
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
  readonly body: any
}

/** Reads a `tools/call` result as a ToolAnswer. */
export const toolAnswer = (result: unknown): ToolAnswer => {
  const r = result as {
    isError?: boolean
    structuredContent?: unknown
    content: Array<{ type: string; text?: string }>
  }
  return r.isError === true
    ? { isError: true, body: JSON.parse(r.content[0]?.text ?? "null") }
    : { isError: false, body: r.structuredContent }
}

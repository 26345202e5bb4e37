import { fileURLToPath } from "node:url"
import { Console, Effect, Layer, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { currentCredentials, resolveBaseUrl, storedCredentials } from "../Credentials.ts"

/** This CLI's entry point, as an absolute path. */
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url))

/**
 * The MCP host configuration that starts this very CLI: the absolute paths of the Node that runs it and of its entry
 * point, so a host never resolves a package by name (`npx svc` outside this repository would fetch whatever the public
 * registry calls `svc`, and run it with the agent's key).
 */
const hostConfig = (baseUrl: string) => ({
  mcpServers: {
    svc: {
      command: process.execPath,
      args: [MAIN, "mcp"],
      env: { SVC_TOKEN: "svc_test_... (your spending key)", SVC_BASE_URL: baseUrl }
    }
  }
})

/**
 * `svc mcp`: the MCP spend tools over this process's stdin and stdout, for an MCP host that starts it. The tools call
 * the service with the stored or environment credentials (SVC_TOKEN, SVC_BASE_URL); nothing but the protocol is
 * written to stdout. `--print-config` prints the host configuration that starts it instead.
 */
export const mcp = Command.make(
  "mcp",
  {
    printConfig: Flag.Boolean("print-config").pipe(
      Flag.withDescription("Print the MCP host configuration (absolute paths) that starts this server, and exit"),
      Flag.withDefault(false)
    )
  },
  Effect.fn(function* ({ printConfig }) {
    if (printConfig) {
      const baseUrl = yield* resolveBaseUrl(Option.none(), yield* storedCredentials)
      return yield* Console.log(JSON.stringify(hostConfig(baseUrl), null, 2))
    }
    const credentials = yield* currentCredentials
    // Loaded here, not at start: every other command would pay for the MCP server's tools and schemas (a third of a
    // second a run).
    const { layerStdio } = yield* Effect.promise(() => import("@svc/adapters-mcp"))
    yield* Layer.launch(layerStdio({ baseUrl: credentials.baseUrl, token: credentials.token }))
  })
).pipe(
  Command.withDescription(
    "Serve the MCP spend tools over stdio (get_balance, create_spend_request, ...), calling the service as the " +
      "logged-in credential or SVC_TOKEN; --print-config prints the host configuration that starts it"
  )
)

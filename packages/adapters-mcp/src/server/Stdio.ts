import * as NodeStdio from "@effect/platform-node/NodeStdio"
import { makeClient } from "@svc/sdk"
import { Effect, Layer } from "effect"
import { McpServer } from "effect/ai"
import { FetchHttpClient } from "effect/http"
import { localRegistrations, serverInfo } from "./McpServerOptions.ts"
import { TOOL_CALL_RETRY } from "./ToolCallRetry.ts"

/** Where the service is and the /v1 credential every tool call is made with (a spending key or team API key). */
export interface StdioOptions {
  readonly baseUrl: string
  readonly token: string
}

/**
 * The MCP server over this process's stdin and stdout, its tools calling the service at `baseUrl` as `token`;
 * `svc mcp` launches it.
 */
export const layerStdio = (options: StdioOptions) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const client = yield* makeClient({ ...options, retry: TOOL_CALL_RETRY })
      return McpServer.layerStdio({
        ...serverInfo,
        registrations: localRegistrations(() => Effect.succeed(client))
      })
    })
  ).pipe(Layer.provide([NodeStdio.layer, FetchHttpClient.layer]))

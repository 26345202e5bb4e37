import { layerStdio } from "@svc/adapters-mcp"
import { Effect, Layer } from "effect"
import { Command } from "effect/cli"
import { currentCredentials } from "../Credentials.ts"

/**
 * `svc mcp`: the MCP spend tools over this process's stdin and stdout, for an MCP client that starts `npx svc mcp`.
 * The tools call the service with the stored or environment credentials (SVC_TOKEN, SVC_BASE_URL); nothing but the
 * protocol is written to stdout.
 */
export const mcp = Command.make(
  "mcp",
  {},
  Effect.fn(function* () {
    const credentials = yield* currentCredentials
    yield* Layer.launch(layerStdio({ baseUrl: credentials.baseUrl, token: credentials.token }))
  })
).pipe(
  Command.withDescription(
    "Serve the MCP spend tools over stdio (get_balance, create_spend_request, ...), calling the service as the " +
      "logged-in credential or SVC_TOKEN"
  )
)

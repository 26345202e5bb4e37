import type { Client } from "@svc/sdk"
import { Effect, Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { ServiceClient } from "../shared/index.ts"
import { PayToolkit, PayToolkitHandlers, SpendToolkit, SpendToolkitHandlers } from "./SpendToolkit.ts"

/** The server's name, version and the MCP revisions it speaks (those the official clients offer). */
export const serverInfo = {
  name: "svc-spend",
  version: "0.0.1",
  instructions:
    "Governed spending for agents. Amounts are integers in minor units (cents for USD). Every spend is decided by " +
    "the team's policy: approved, denied, or pending a person's approval (then poll, do not resend). Give creating " +
    "tools a clientRequestId and reuse it when retrying.",
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26]
} as const

/** Which SDK client a tool call runs with, from the request's headers (empty on stdio). */
export type ClientForRequest = (headers: Readonly<Record<string, string | undefined>>) => Effect.Effect<Client>

/** Each tool call as the client `clientFor` picks from the request. */
const asCaller = (clientFor: ClientForRequest) =>
  McpServer.middleware<{ provides: ServiceClient }>()((effect, { headers }) =>
    Effect.flatMap(clientFor(headers), (client) => Effect.provideService(effect, ServiceClient, client))
  ).layer

/** The spend toolkit registered with the MCP server, each call as the client `clientFor` picks. */
export const spendRegistrations = (clientFor: ClientForRequest) =>
  McpServer.toolkit(SpendToolkit).pipe(Layer.provide(asCaller(clientFor)), Layer.provide(SpendToolkitHandlers))

/**
 * The spend toolkit and `pay_for_resource`, for a server that runs beside its agent (`svc mcp`): paying fetches the
 * agent's URL from where the agent runs. The service's own /mcp does not offer it, since there the service itself
 * would fetch whatever URL a caller names.
 */
export const localRegistrations = (clientFor: ClientForRequest) =>
  Layer.merge(
    spendRegistrations(clientFor),
    McpServer.toolkit(PayToolkit).pipe(Layer.provide(asCaller(clientFor)), Layer.provide(PayToolkitHandlers))
  )

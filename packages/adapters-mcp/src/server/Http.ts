import { InProcessToolCall } from "@svc/adapters-http"
import { MCP_PATH } from "@svc/adapters-http/api"
import { makeClient } from "@svc/sdk"
import { Context, Effect, Layer, type Scope } from "effect"
import { McpServer } from "effect/ai"
import { FetchHttpClient, HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ClientForRequest, serverInfo, spendRegistrations } from "./McpServerOptions.ts"
import { TOOL_CALL_RETRY } from "./ToolCallRetry.ts"

/**
 * Whether a bearer credential is one the tools may act with now (known, unexpired, unrevoked): an agent key, or an
 * OAuth access token whose application may still act for its team.
 */
export class CallerCredentials extends Context.Service<
  CallerCredentials,
  { readonly known: (token: string) => Effect.Effect<boolean, unknown> }
>()("@svc/adapters-mcp/CallerCredentials") {}

const bearerOf = (authorization: string | undefined) => {
  const match = /^Bearer\s+(\S+)\s*$/iu.exec(authorization ?? "")
  return match?.[1]
}

/**
 * Answers 401 with the RFC 6750 challenge pointing at the endpoint's own protected resource metadata (RFC 9728 §3.1)
 * unless the request carries a credential the tools may act with; what it may do is then the API's to decide, call by
 * call.
 */
const challengeUnknownCallers = (publicBaseUrl: string) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const credentials = yield* CallerCredentials
      return (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const token = bearerOf(request.headers.authorization)
          const known = token === undefined ? false : yield* Effect.result(credentials.known(token))
          if (known !== false && known._tag === "Failure") {
            return HttpServerResponse.jsonUnsafe(
              { error: "service_unavailable", code: 503, message: "the credential could not be checked; retry" },
              { status: 503, headers: { "retry-after": "1" } }
            )
          }
          if (known !== false && known.success) return yield* httpEffect
          return HttpServerResponse.jsonUnsafe(
            { error: "unauthorized", code: 401, message: "missing, malformed, unknown, revoked or expired credential" },
            {
              status: 401,
              headers: {
                "www-authenticate": `Bearer resource_metadata="${publicBaseUrl}/.well-known/oauth-protected-resource${MCP_PATH}"`
              }
            }
          )
        })
    })
  ).layer

/**
 * The MCP server over Streamable HTTP at `/mcp` on this service's own router. Each tool call is made with the SDK
 * as the HTTP request's bearer credential, dispatched in process to this router's own routes (no network hop), so
 * scopes, rate limits, validation and idempotency are the API's. Those requests are marked `InProcessToolCall`, the
 * one place an OAuth access token stands for its application's agent; the same token from the network gets 401 on
 * /v1.
 */
export const layerHttp = (options: { readonly publicBaseUrl: string }) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const router = yield* HttpRouter.HttpRouter
      const context = yield* Effect.context<never>()
      let handler: ((request: Request) => Promise<Response>) | undefined
      const selfFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        // The router is complete only once every route layer is built, so its handler is made on the first call.
        handler ??= HttpEffect.toWebHandlerWith<never, HttpServerRequest.HttpServerRequest | Scope.Scope>(
          Context.add(context, InProcessToolCall, true)
        )(router.asHttpEffect())
        return handler(new Request(input, init))
      }) as typeof fetch
      const clientFor: ClientForRequest = (headers) =>
        makeClient({
          baseUrl: options.publicBaseUrl,
          token: bearerOf(headers.authorization) ?? "",
          retry: TOOL_CALL_RETRY
        }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.Fetch, selfFetch))
      return McpServer.layerHttp({
        ...serverInfo,
        path: MCP_PATH,
        registrations: spendRegistrations(clientFor)
      }).pipe(Layer.provide(challengeUnknownCallers(options.publicBaseUrl)))
    })
  )

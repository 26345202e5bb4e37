import {
  AgentAuth,
  Api,
  CSRF_HEADER,
  DashboardAuth,
  DashboardSessionAuth,
  PlatformAuth,
  SessionAuth
} from "@svc/adapters-http/api"
import { Context, Effect, Layer, Redacted, SchemaAST } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApi, HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { isRetryableStatus, parseRetryAfter, RetryableFailure, type RetryOptions, withRetry } from "./RetryPolicy.ts"
import { type AnyRoute, mapRoutes, type Routes } from "./Routes.ts"

/**
 * Where the service is, the bearer credential (session JWT, dashboard session token, API key or spending key) and the
 * retry numbers. Without a `token` the client relies on the browser's `svc_session` cookie (a same-origin dashboard):
 * it sends no Authorization header and sends `csrfToken`, when given, as `x-csrf-token` on every request.
 */
export interface ClientOptions {
  readonly baseUrl: string
  readonly token?: string | Redacted.Redacted | undefined
  /** The dashboard session's CSRF token (from POST /auth/sessions or GET /auth/session), for cookie mode. */
  readonly csrfToken?: string | undefined
  readonly retry?: RetryOptions
}

type ClientMiddleware = (options: {
  readonly request: HttpClientRequest.HttpClientRequest
  readonly next: (r: HttpClientRequest.HttpClientRequest) => ReturnType<HttpClient.HttpClient["execute"]>
}) => ReturnType<HttpClient.HttpClient["execute"]>

/** The client side of every security middleware of the contract, each sending with `send`. */
const everySecurity = (send: ClientMiddleware) =>
  Layer.mergeAll(
    HttpApiMiddleware.layerClient(SessionAuth, send),
    HttpApiMiddleware.layerClient(AgentAuth, send),
    HttpApiMiddleware.layerClient(DashboardAuth, send),
    HttpApiMiddleware.layerClient(PlatformAuth, send),
    HttpApiMiddleware.layerClient(DashboardSessionAuth, send)
  )

/** Sends no credential of its own (the cookie travels with the browser's request) but the CSRF token, if any. */
const cookieLayers = (csrfToken: string | undefined) =>
  everySecurity(({ request, next }) =>
    next(csrfToken === undefined ? request : HttpClientRequest.setHeader(request, CSRF_HEADER, csrfToken))
  )

/** Sends the bearer credential. */
const bearerLayers = (token: Redacted.Redacted) =>
  everySecurity(({ request, next }) => next(HttpClientRequest.bearerToken(request, token)))

/**
 * Where one logical call keeps the last response it got (after its retries), so that its error can carry the
 * response's request id and rate-limit headers. A call without one records nothing.
 */
export class CallResponse extends Context.Service<
  CallResponse,
  { last: HttpClientResponse.HttpClientResponse | undefined }
>()("@svc/sdk/CallResponse") {}

const recordResponse = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.serviceOption(CallResponse).pipe(
    Effect.map((holder) => {
      if (holder._tag === "Some") holder.value.last = response
      return response
    })
  )

/**
 * Retries 5xx, 429 and a 409 `idempotency_key_in_use` (both honouring Retry-After), and connection failures, under the
 * policy; when retries run out the last
 * response is handed on, so the caller still sees the service's error body.
 */
export const retryingClient =
  (options: RetryOptions = {}) =>
  (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    client.pipe(
      HttpClient.transformResponse((response) =>
        response.pipe(
          Effect.mapError((cause) =>
            cause.reason._tag === "TransportError"
              ? new RetryableFailure({ status: null, retryAfterMs: null, cause })
              : cause
          ),
          Effect.flatMap((res) =>
            isRetryableStatus(res.status, res.headers["retry-after"])
              ? Effect.fail(
                  new RetryableFailure({
                    status: res.status,
                    retryAfterMs: res.status < 500 ? parseRetryAfter(res.headers["retry-after"]) : null,
                    cause: res
                  })
                )
              : Effect.succeed(res)
          ),
          withRetry(options),
          Effect.catchTag("RetryableFailure", (failure) =>
            failure.status === null
              ? Effect.fail(failure.cause as HttpClientError.HttpClientError)
              : Effect.succeed(failure.cause as HttpClientResponse.HttpClientResponse)
          ),
          Effect.flatMap(recordResponse)
        )
      )
    )

const isIdempotencyKey = (field: SchemaAST.PropertySignature) => field.name === "idempotency-key"

/** `group.endpoint` of every route whose contract takes an `Idempotency-Key` header. */
const idempotentRoutes: ReadonlySet<string> = (() => {
  const routes = new Set<string>()
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint }) => {
      const ast = endpoint.headers?.ast
      if (ast !== undefined && SchemaAST.isObjects(ast) && ast.propertySignatures.some(isIdempotencyKey)) {
        routes.add(`${group.identifier}.${endpoint.identifier}`)
      }
    }
  })
  return routes
})()

type CallRequest = Parameters<AnyRoute>[0]

/** The request with an `Idempotency-Key` of its own unless the caller gave one: one key for the call and its retries. */
const withIdempotencyKey = (request: CallRequest) =>
  request?.headers?.["idempotency-key"] !== undefined
    ? Effect.succeed(request)
    : Effect.sync(() => ({ ...request, headers: { ...request?.headers, "idempotency-key": crypto.randomUUID() } }))

/**
 * The typed client of the whole contract (for Effect users); needs an `HttpClient` (e.g. `FetchHttpClient.layer`).
 * A route that takes an `Idempotency-Key` gets one generated per call when the request has none, and every retry of
 * that call sends the same key.
 */
export const makeClient = (options: ClientOptions): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, { baseUrl: options.baseUrl, transformClient: retryingClient(options.retry) }).pipe(
    Effect.map(
      (client) =>
        mapRoutes(client, (group, endpoint, route) =>
          idempotentRoutes.has(`${group}.${endpoint}`)
            ? (request) =>
                Effect.flatMap(withIdempotencyKey(request), route as (r: CallRequest) => Effect.Effect<unknown>)
            : route
        ) as unknown as Client
    ),
    Effect.provide(
      options.token === undefined
        ? cookieLayers(options.csrfToken)
        : bearerLayers(typeof options.token === "string" ? Redacted.make(options.token) : options.token)
    )
  )

/** The typed client `makeClient` builds: `client.<group>.<endpoint>(request)` for every route. */
export type Client = Routes<"effect">

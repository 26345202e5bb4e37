import { AgentAuth, Api, DashboardAuth, PlatformAuth, SessionAuth } from "@svc/adapters-http/api"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { isRetryableStatus, parseRetryAfter, RetryableFailure, type RetryOptions, withRetry } from "./RetryPolicy.ts"

/** Where the service is, the bearer credential (session JWT, API key or spending key) and the retry numbers. */
export interface ClientOptions {
  readonly baseUrl: string
  readonly token: string | Redacted.Redacted
  readonly retry?: RetryOptions
}

/** Sends the bearer credential for every security middleware of the contract. */
const bearerLayers = (token: Redacted.Redacted) => {
  const bearer = ({
    request,
    next
  }: {
    readonly request: HttpClientRequest.HttpClientRequest
    readonly next: (r: HttpClientRequest.HttpClientRequest) => ReturnType<HttpClient.HttpClient["execute"]>
  }) => next(HttpClientRequest.bearerToken(request, token))
  return Layer.mergeAll(
    HttpApiMiddleware.layerClient(SessionAuth, bearer),
    HttpApiMiddleware.layerClient(AgentAuth, bearer),
    HttpApiMiddleware.layerClient(DashboardAuth, bearer),
    HttpApiMiddleware.layerClient(PlatformAuth, bearer)
  )
}

/**
 * Retries 5xx, 429 (honouring Retry-After) and connection failures under the policy; when retries run out the last
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
            isRetryableStatus(res.status)
              ? Effect.fail(
                  new RetryableFailure({
                    status: res.status,
                    retryAfterMs: res.status === 429 ? parseRetryAfter(res.headers["retry-after"]) : null,
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
          )
        )
      )
    )

/** The typed client of the whole contract (for Effect users); needs an `HttpClient` (e.g. `FetchHttpClient.layer`). */
export const makeClient = (options: ClientOptions) =>
  HttpApiClient.make(Api, { baseUrl: options.baseUrl, transformClient: retryingClient(options.retry) }).pipe(
    Effect.provide(bearerLayers(typeof options.token === "string" ? Redacted.make(options.token) : options.token))
  )

/** The typed client `makeClient` builds. */
export type Client = Effect.Success<ReturnType<typeof makeClient>>

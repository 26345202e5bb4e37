import type { OAuthError } from "@svc/domain"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"

/** The RFC 6749 5.2 error body. */
export interface OAuthErrorBody {
  readonly error: string
  readonly error_description?: string
  readonly state?: string
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

/** An OAuth error response; never cached. */
export const oauthErrorResponse = (status: number, body: OAuthErrorBody, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...NO_STORE, ...headers } })

/** Marks any response of an OAuth endpoint as not cacheable (RFC 6749 5.1). */
export const noStore = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeaders(response, NO_STORE)

/** A domain OAuth error as a JSON response: `invalid_client` is 401 (with a Basic challenge when Basic was used), the rest 400. */
const fromOAuthError = (error: OAuthError, options: { readonly basic?: boolean; readonly state?: string } = {}) =>
  oauthErrorResponse(
    error.error === "invalid_client" ? 401 : 400,
    {
      error: error.error,
      error_description: error.description,
      ...(options.state === undefined ? {} : { state: options.state })
    },
    error.error === "invalid_client" && options.basic === true ? { "www-authenticate": 'Basic realm="oauth"' } : {}
  )

/** A store outage: 503 `temporarily_unavailable`. */
export const temporarilyUnavailable = () =>
  oauthErrorResponse(503, {
    error: "temporarily_unavailable",
    error_description: "the service is temporarily unavailable; retry later"
  })

/** Answers OAuth domain errors and store outages in the OAuth error format. */
export const renderOAuthFailures =
  (options: { readonly basic?: boolean; readonly state?: string } = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.catch(self, (error: E) => {
      const tag = (error as { _tag?: unknown })?._tag
      if (tag === "OAuthError") return Effect.succeed(fromOAuthError(error as OAuthError, options))
      if (tag === "PersistenceUnavailable") return Effect.succeed(temporarilyUnavailable())
      return Effect.fail(error as Exclude<E, OAuthError | { readonly _tag: "PersistenceUnavailable" }>)
    })

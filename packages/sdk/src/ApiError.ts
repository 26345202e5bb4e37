import { Effect, Schema, SchemaIssue } from "effect"
import type { HttpClientResponse } from "effect/http"

/** One invalid field: where it is and what is wrong with it. */
export interface FieldIssue {
  readonly path: string
  readonly message: string
}

/** The `RateLimit-*` headers of a response: the limit, what is left of it, and the seconds until it resets. */
export interface RateLimit {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
}

/** What the response of a failed call said beside its body. */
export interface ResponseFacts {
  /** The service's `x-request-id` of the response: quote it when reporting a problem. */
  readonly requestId?: string | undefined
  readonly rateLimit?: RateLimit | undefined
  /** The `Retry-After` seconds of a 429 or 409 `idempotency_key_in_use`. */
  readonly retryAfterSeconds?: number | undefined
}

/**
 * A failed call: `status` (and `code`, its copy from the body) is the HTTP status (0 when no response arrived or the
 * client refused the input before sending), `error` the service's snake_case code, `details` the invalid fields of a
 * validation failure; `requestId`, `rateLimit` and `retryAfterSeconds` come from the response's headers.
 */
export class ApiError extends Error {
  override readonly name = "ApiError"
  readonly status: number
  readonly code: number
  readonly error: string
  readonly details: ReadonlyArray<FieldIssue> | undefined
  readonly requestId: string | undefined
  readonly rateLimit: RateLimit | undefined
  readonly retryAfterSeconds: number | undefined

  constructor(
    status: number,
    error: string,
    message: string,
    details?: ReadonlyArray<FieldIssue>,
    facts: ResponseFacts = {}
  ) {
    super(message)
    this.status = status
    this.code = status
    this.error = error
    this.details = details
    this.requestId = facts.requestId
    this.rateLimit = facts.rateLimit
    this.retryAfterSeconds = facts.retryAfterSeconds
  }

  /** The same error with what the response's headers said. */
  withFacts(facts: ResponseFacts): ApiError {
    return new ApiError(this.status, this.error, this.message, this.details, facts)
  }
}

const wholeNumber = (header: string | undefined): number | undefined =>
  header !== undefined && /^\s*\d{1,12}\s*$/u.test(header) ? Number(header.trim()) : undefined

/** The request id, rate limit and Retry-After of a response's headers. */
export const responseFacts = (headers: Readonly<Record<string, string | undefined>>): ResponseFacts => {
  const limit = wholeNumber(headers["ratelimit-limit"])
  const remaining = wholeNumber(headers["ratelimit-remaining"])
  const resetSeconds = wholeNumber(headers["ratelimit-reset"])
  return {
    requestId: headers["x-request-id"],
    rateLimit:
      limit === undefined || remaining === undefined || resetSeconds === undefined
        ? undefined
        : { limit, remaining, resetSeconds },
    retryAfterSeconds: wholeNumber(headers["retry-after"])
  }
}

const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.optionalKey(Schema.String),
  details: Schema.optionalKey(Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String })))
})
const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

const fromBody = (status: number, body: unknown, fallback: string): ApiError => {
  const parsed = decodeErrorBody(body)
  if (parsed._tag === "None") return new ApiError(status, "unexpected_response", fallback)
  const { error, message, details } = parsed.value
  return new ApiError(status, error, message ?? error, details)
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const fromResponse = (response: HttpClientResponse.HttpClientResponse) =>
  response.json.pipe(
    Effect.map((body) => fromBody(response.status, body, `unexpected response ${response.status}`)),
    Effect.orElseSucceed(
      () => new ApiError(response.status, "unexpected_response", `unexpected response ${response.status}`)
    )
  )

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/**
 * Turns any failure of the typed client into an ApiError (reading the error body when the status was undeclared);
 * given the call's last response, the error carries its request id and rate-limit headers.
 */
export const toApiError = (
  failure: unknown,
  response?: HttpClientResponse.HttpClientResponse
): Effect.Effect<ApiError> =>
  bareApiError(failure).pipe(
    Effect.map((error) => (response === undefined ? error : error.withFacts(responseFacts(response.headers))))
  )

const bareApiError = (failure: unknown): Effect.Effect<ApiError> => {
  if (failure instanceof ApiError) return Effect.succeed(failure)
  if (isObject(failure) && typeof failure.code === "number" && typeof failure.error === "string") {
    return Effect.succeed(fromBody(failure.code, failure, "request failed"))
  }
  if (Schema.isSchemaError(failure)) {
    const details = formatter(failure.issue).issues.map((issue) => ({
      path: (issue.path ?? []).map((p) => String(isObject(p) ? p.key : p)).join("."),
      message: issue.message
    }))
    return Effect.succeed(new ApiError(0, "validation_failed", failure.message, details))
  }
  if (isObject(failure) && failure._tag === "HttpClientError" && isObject(failure.reason)) {
    const reason = failure.reason as {
      _tag: string
      response?: HttpClientResponse.HttpClientResponse
      message?: string
    }
    if (reason.response !== undefined) return fromResponse(reason.response)
    if (reason._tag === "TransportError") {
      return Effect.succeed(new ApiError(0, "connection_error", String(reason.message ?? "connection failed")))
    }
  }
  return Effect.succeed(new ApiError(0, "request_failed", failure instanceof Error ? failure.message : String(failure)))
}

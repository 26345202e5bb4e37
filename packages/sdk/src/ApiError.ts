import { Effect, Schema, SchemaIssue } from "effect"
import type { HttpClientResponse } from "effect/http"

/** One invalid field: where it is and what is wrong with it. */
export interface FieldIssue {
  readonly path: string
  readonly message: string
}

/**
 * A failed call: `status` is the HTTP status (0 when no response arrived or the client refused the input before
 * sending), `error` the service's snake_case code, `details` the invalid fields of a validation failure.
 */
export class ApiError extends Error {
  override readonly name = "ApiError"
  readonly status: number
  readonly error: string
  readonly details: ReadonlyArray<FieldIssue> | undefined

  constructor(status: number, error: string, message: string, details?: ReadonlyArray<FieldIssue>) {
    super(message)
    this.status = status
    this.error = error
    this.details = details
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

/** Turns any failure of the typed client into an ApiError (reading the error body when the status was undeclared). */
export const toApiError = (failure: unknown): Effect.Effect<ApiError> => {
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

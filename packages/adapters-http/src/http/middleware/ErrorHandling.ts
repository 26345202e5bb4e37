import { ByteSize, Cause, Effect, Layer, Option, SchemaIssue, type Types } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { RequestValidation } from "../../api/shared/index.ts"
import { errorResponse, unreadableBodyMessage } from "./ErrorResponses.ts"
import { InputLimitsLive } from "./InputLimits.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const slotPrefix: Record<HttpApiError.HttpApiSchemaError["kind"], string> = {
  Params: "params.",
  Query: "query.",
  Headers: "headers.",
  Payload: "",
  Body: "",
  ResponseHeaders: "responseHeaders."
}

const pathOf = (
  kind: HttpApiError.HttpApiSchemaError["kind"],
  path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
): string => {
  const segments = (path ?? []).map((segment) => (typeof segment === "object" ? String(segment.key) : String(segment)))
  const joined = segments.join(".")
  return joined === ""
    ? kind === "Payload" || kind === "Body"
      ? "body"
      : slotPrefix[kind].slice(0, -1)
    : `${slotPrefix[kind]}${joined}`
}

const invalidJson = (message = "the request body is not valid JSON") => errorResponse(400, "invalid_json", message)

const isUnreadableBody = (error: HttpApiError.HttpApiSchemaError) =>
  (error.kind === "Payload" || error.kind === "Body") &&
  error.cause.issue._tag !== "Composite" &&
  /valid JSON/u.test(error.cause.message)

const isTooLarge = (error: HttpApiError.HttpApiSchemaError) =>
  /too large|BodyTooLarge/iu.test(String(error.cause.message))

const payloadTooLarge = () => errorResponse(413, "payload_too_large", "the request body is over 1 MiB")

/** The 400 body for a request that failed schema decoding (413 / invalid_json when the body could not be read). */
const validationResponse = (error: HttpApiError.HttpApiSchemaError) => {
  if (isTooLarge(error)) return payloadTooLarge()
  if (isUnreadableBody(error)) return invalidJson(unreadableBodyMessage(error))
  const details = formatter(error.cause.issue).issues.map((issue) => ({
    path: pathOf(error.kind, issue.path),
    message: issue.message
  }))
  return errorResponse(
    400,
    "validation_failed",
    `invalid request: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`,
    {
      details
    }
  )
}

const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) =>
  Effect.succeed(validationResponse(error))
)

const internalError = (requestId: string) =>
  errorResponse(500, "internal_error", `unexpected failure; request id ${requestId}`)

/** The client's `x-request-id` when it is a short token (letters, digits, `.`, `_`, `:`, `-`); otherwise a new one. */
const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const given = request.headers["x-request-id"]
  return given !== undefined && /^[A-Za-z0-9._:-]{1,128}$/u.test(given) ? given : crypto.randomUUID()
}

/**
 * Every failure that escapes a route becomes a JSON error body: unknown routes (404), unreadable or oversized
 * bodies (400 `invalid_json`, 413), and anything unexpected (500, logged with a request id, never shown to the client).
 * Every response carries its request id in `x-request-id`: the client's own when it sent a well-formed one.
 */
const JsonErrors = HttpRouter.middleware<{ handles: unknown }>()(
  (
    httpEffect
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const requestId = requestIdOf(request)
      return Effect.catchCause(
        httpEffect.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(1024 * 1024)),
          Effect.map((response) =>
            response.status === 415
              ? errorResponse(415, "unsupported_media_type", "the request body must be application/json")
              : response
          )
        ),
        (cause) =>
          Effect.gen(function* () {
            const failure = Option.some(Cause.squash(cause))
            if (Option.isSome(failure) && HttpServerError.isHttpServerError(failure.value)) {
              const reason = failure.value.reason
              if (reason._tag === "RouteNotFound") {
                return errorResponse(404, "not_found", `no route for ${reason.methodAndUrl}`)
              }
              if (reason._tag === "RequestParseError") {
                return reason.reason === "BodyTooLarge" ? payloadTooLarge() : invalidJson()
              }
            }
            if (Option.isSome(failure) && HttpApiError.HttpApiSchemaError.is(failure.value)) {
              return validationResponse(failure.value)
            }
            yield* Effect.logError("request failed", { requestId, method: request.method, url: request.url }, cause)
            return internalError(requestId)
          })
      ).pipe(Effect.map(HttpServerResponse.setHeader("x-request-id", requestId)))
    }),
  { global: true }
)

export const ErrorHandlingLive = Layer.mergeAll(RequestValidationLive, InputLimitsLive, JsonErrors)

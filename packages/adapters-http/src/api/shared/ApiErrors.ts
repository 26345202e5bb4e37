import { Schema } from "effect"

/** One invalid field of a request: where it is and what is wrong with it. */
export const FieldIssue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type FieldIssue = typeof FieldIssue.Type

const body = <S extends number>(status: S) => ({
  error: Schema.String,
  code: Schema.Literal(status),
  message: Schema.String
})

/** 400: the request is malformed or a field is invalid (`details` names each field). */
export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(
  { ...body(400), details: Schema.optionalKey(Schema.Array(FieldIssue)) },
  { httpApiStatus: 400, description: "The request is malformed or a field is invalid" }
) {}

/** 401: the credential is missing, malformed, unknown, revoked or expired. */
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(body(401), {
  httpApiStatus: 401,
  description: "Missing or invalid credential"
}) {}

/** 403: the credential lacks a scope or role the route needs. */
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(body(403), {
  httpApiStatus: 403,
  description: "The credential lacks a scope or role this route needs"
}) {}

/** 404: no such resource for this credential's team. */
export class NotFound extends Schema.Error<NotFound>("NotFound")(body(404), {
  httpApiStatus: 404,
  description: "No such resource"
}) {}

/** 409: the resource is in a state that does not allow this. */
export class Conflict extends Schema.Error<Conflict>("Conflict")(body(409), {
  httpApiStatus: 409,
  description: "The resource's state does not allow this"
}) {}

/** 413: the body is over the size limit. */
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(body(413), {
  httpApiStatus: 413,
  description: "The request body is over 1 MiB"
}) {}

/** 415: the body is not JSON. */
export class UnsupportedMediaType extends Schema.Error<UnsupportedMediaType>("UnsupportedMediaType")(body(415), {
  httpApiStatus: 415,
  description: "The request body must be application/json"
}) {}

/** 422: the request is well-formed but cannot be processed (e.g. an idempotency key reused with another body). */
export class Unprocessable extends Schema.Error<Unprocessable>("Unprocessable")(body(422), {
  httpApiStatus: 422,
  description: "The request cannot be processed"
}) {}

/** 429: the credential is over its rate limit. */
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(body(429), {
  httpApiStatus: 429,
  description: "Rate limit exceeded; retry after the Retry-After seconds"
}) {}

/** 500: an unexpected failure; details are in the server log under the request id. */
export class InternalError extends Schema.Error<InternalError>("InternalError")(
  { error: Schema.Literal("internal_error"), code: Schema.Literal(500), message: Schema.optionalKey(Schema.String) },
  { httpApiStatus: 500, description: "Unexpected failure" }
) {}

/** 503: a dependency (the database) is unavailable; retry later. */
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(body(503), {
  httpApiStatus: 503,
  description: "A dependency is unavailable; retry later"
}) {}

/** Errors every authenticated route may answer with. */
export const CommonErrors = [BadRequest, Unauthorized, InternalError, ServiceUnavailable] as const

export const badRequest = (error: string, message: string, details?: ReadonlyArray<FieldIssue>) =>
  new BadRequest(details === undefined ? { error, code: 400, message } : { error, code: 400, message, details })
export const unauthorized = (message = "missing or invalid credential") =>
  new Unauthorized({ error: "unauthorized", code: 401, message })
export const forbidden = (error: string, message: string) => new Forbidden({ error, code: 403, message })
export const notFound = (message: string) => new NotFound({ error: "not_found", code: 404, message })
export const conflict = (error: string, message: string) => new Conflict({ error, code: 409, message })
export const unprocessable = (error: string, message: string) => new Unprocessable({ error, code: 422, message })
/** What a client is told when the store is down. */
export const STORE_UNAVAILABLE_MESSAGE = "the database is unavailable; retry later"
export const serviceUnavailable = (message = STORE_UNAVAILABLE_MESSAGE, error = "service_unavailable") =>
  new ServiceUnavailable({ error, code: 503, message })

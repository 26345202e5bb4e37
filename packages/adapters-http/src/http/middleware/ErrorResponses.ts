import { jsonTooDeepMessage } from "@svc/domain"
import { HttpServerResponse } from "effect/http"
import type { HttpApiError } from "effect/http-api"
import type { FieldIssue } from "../../api/shared/index.ts"
import { STORE_UNAVAILABLE_MESSAGE } from "../../api/shared/index.ts"

/** The contract's error body `{error, code, message, details?}`. */
export const errorBody = (status: number, error: string, message: string, details?: ReadonlyArray<FieldIssue>) =>
  details === undefined ? { error, code: status, message } : { error, code: status, message, details }

/** A contract error body as a response, for middlewares that answer directly. */
export const errorResponse = (
  status: number,
  error: string,
  message: string,
  options: { readonly details?: ReadonlyArray<FieldIssue>; readonly headers?: Record<string, string> } = {}
) =>
  HttpServerResponse.jsonUnsafe(errorBody(status, error, message, options.details), {
    status,
    headers: options.headers ?? {}
  })

/** 503: the store could not be reached; the client may retry. */
export const storeUnavailableResponse = () => errorResponse(503, "service_unavailable", STORE_UNAVAILABLE_MESSAGE)

/** What to tell a client whose body could not be parsed: nested too deep, or not JSON at all. */
export const unreadableBodyMessage = (error: HttpApiError.HttpApiSchemaError): string =>
  error.cause.message === jsonTooDeepMessage ? jsonTooDeepMessage : "the request body is not valid JSON"

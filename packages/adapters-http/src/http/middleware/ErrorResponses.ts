import { HttpServerResponse } from "effect/http"
import type { FieldIssue } from "../../api/shared/index.ts"
import { STORE_UNAVAILABLE_MESSAGE } from "../../api/shared/index.ts"

/** A CONTRACT.md error body `{error, code, message, details?}` as a response, for middlewares that answer directly. */
export const errorResponse = (
  status: number,
  error: string,
  message: string,
  options: { readonly details?: ReadonlyArray<FieldIssue>; readonly headers?: Record<string, string> } = {}
) =>
  HttpServerResponse.jsonUnsafe(
    options.details === undefined
      ? { error, code: status, message }
      : { error, code: status, message, details: options.details },
    { status, headers: options.headers ?? {} }
  )

/** 503: the store could not be reached; the client may retry. */
export const storeUnavailableResponse = () => errorResponse(503, "service_unavailable", STORE_UNAVAILABLE_MESSAGE)

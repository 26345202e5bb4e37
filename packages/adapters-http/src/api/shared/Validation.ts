import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "./ApiErrors.ts"

/** Renders request decoding failures as `400 validation_failed` with `details` naming each field. */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()(
  "@svc/adapters-http/RequestValidation",
  {
    error: BadRequest
  }
) {}

/** Refuses a query or body nested deeper than 64 levels or carrying text Postgres cannot store, before decoding. */
export class InputLimits extends HttpApiMiddleware.Service<InputLimits>()("@svc/adapters-http/InputLimits") {}

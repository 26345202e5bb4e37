import { Context, Schema } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import type { CurrentAgent } from "../shared/index.ts"
import { BadRequest, Conflict, ServiceUnavailable, Unprocessable } from "../shared/index.ts"

/** Endpoint annotation: without an `Idempotency-Key` header the request gets 400 `idempotency_key_required`. */
export class IdempotencyKeyRequired extends Context.Service<IdempotencyKeyRequired, boolean>()(
  "@svc/adapters-http/IdempotencyKeyRequired"
) {}

/** The `Idempotency-Key` request header: 1 to 255 characters, unique per operation the client means to run once. */
export const IdempotencyKey = Schema.String.check(
  Schema.isBetweenLength(1, 255, { message: "the Idempotency-Key header must be 1..255 characters" })
).annotate({
  description:
    "Makes the POST safe to retry: the same key and body replay the first answer (header `Idempotent-Replayed: true`), " +
    "a different body gets 422 `idempotency_key_reused`, a retry while the first is running gets 409 " +
    "`idempotency_key_in_use` with `Retry-After`. Kept at least 24 h."
})

/**
 * Idempotency for a /v1 POST (CONTRACT.md "Idempotency"). Add it to a group BEFORE `.middleware(AgentAuth)`:
 * middlewares added first run innermost, and this one needs the `CurrentAgent` the authentication provides.
 * Only for routes whose responses carry no card numbers, CVCs or secrets: the first response is stored verbatim.
 */
export class Idempotent extends HttpApiMiddleware.Service<Idempotent, { requires: CurrentAgent }>()(
  "@svc/adapters-http/Idempotent",
  { error: [BadRequest, Conflict, Unprocessable, ServiceUnavailable] }
) {}

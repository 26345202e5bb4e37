import type { AnsweredMeanwhile, IdempotencyKeyInUse, OnceWrite } from "@svc/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import type { CurrentAgent } from "../shared/index.ts"
import { BadRequest, Conflict, ServiceUnavailable, Unprocessable } from "../shared/index.ts"

/** Endpoint annotation: without an `Idempotency-Key` header the request gets 400 `idempotency_key_required`. */
export class IdempotencyKeyRequired extends Context.Service<IdempotencyKeyRequired, boolean>()(
  "@svc/adapters-http/IdempotencyKeyRequired"
) {}

/**
 * Endpoint annotation: the handler stores its answer with its own work, through `IdempotentCall`, as a write decided in
 * a shared batch must (group commit); the `Idempotent` middleware then opens no transaction around it.
 */
export class AnswersWithItsWork extends Context.Service<AnswersWithItsWork, boolean>()(
  "@svc/adapters-http/AnswersWithItsWork"
) {}

/**
 * What the `Idempotent` middleware hands an `AnswersWithItsWork` handler: the key's scope and the body's fingerprint,
 * which the domain stores with its outcome, and the outcome the first request with this key and body stored, if any,
 * for the handler to render again (ADR 0047).
 */
export class IdempotentCall extends Context.Service<
  IdempotentCall,
  {
    readonly once: OnceWrite
    /** The stored outcome to answer again (rendered through `replayed`); none: the work is to run. */
    readonly stored: Option.Option<Schema.Json>
    /**
     * The answer again: `response`, or its declared error as the HttpApi encodes it, marked `Idempotent-Replayed`.
     * `response` renders the stored outcome as the first answer did.
     */
    readonly replayed: <E>(
      response: Effect.Effect<HttpServerResponse.HttpServerResponse, E>
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E>
    /**
     * The response to a request that did no work: its key is in use, or a request with it finished first, whose stored
     * outcome `render` renders.
     */
    readonly unanswered: <E>(
      refusal: IdempotencyKeyInUse | AnsweredMeanwhile,
      render: (outcome: Schema.Json) => Effect.Effect<HttpServerResponse.HttpServerResponse, E>
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E>
  }
>()("@svc/adapters-http/IdempotentCall") {}

/** The `Idempotency-Key` request header: 1 to 255 characters, unique per operation the client means to run once. */
export const IdempotencyKey = Schema.String.check(
  Schema.isBetweenLength(1, 255, { message: "the Idempotency-Key header must be 1..255 characters" })
).annotate({
  description:
    "Makes the POST safe to retry: the same key and body replay the first answer (header `Idempotent-Replayed: true`), " +
    "a different body gets 422 `idempotency_key_reused`, a retry while the first is running gets 409 " +
    "`idempotency_key_in_use` with `Retry-After`. Kept at least 24 h."
})

/** The headers of a POST run at most once per key: an optional `Idempotency-Key` (required where the route says so). */
export const IdempotencyKeyHeader = { "idempotency-key": Schema.optionalKey(IdempotencyKey) }

/**
 * Idempotency for a /v1 POST (CONTRACT.md "Idempotency"). Add it to a group BEFORE `.middleware(AgentAuth)`:
 * middlewares added first run innermost, and this one needs the `CurrentAgent` the authentication provides.
 * Only for routes whose responses carry no card numbers, CVCs or secrets: the first response is stored verbatim.
 */
export class Idempotent extends HttpApiMiddleware.Service<Idempotent, { requires: CurrentAgent }>()(
  "@svc/adapters-http/Idempotent",
  { error: [BadRequest, Conflict, Unprocessable, ServiceUnavailable] }
) {}

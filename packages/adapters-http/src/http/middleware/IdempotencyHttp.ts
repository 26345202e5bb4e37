import {
  fingerprintBody,
  type IdempotencyScope,
  IdempotencyStore,
  isPersistenceUnavailable,
  isStoredOutcome,
  nowIso,
  type StoredAnswer,
  type StoredResponse,
  Transactor
} from "@svc/domain"
import { Cause, Context, Data, Effect, Exit, Layer, Option, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { AnswersWithItsWork, IdempotencyKeyRequired, Idempotent, IdempotentCall } from "../../api/platform/index.ts"
import { CurrentAgent } from "../../api/shared/index.ts"
import { errorResponse, storeUnavailableResponse } from "./ErrorResponses.ts"

const HEADER = "idempotency-key"
const MAX_KEY_LENGTH = 255

const keyIssue = (error: string, message: string) =>
  errorResponse(400, error, message, { details: [{ path: `headers.${HEADER}`, message }] })

/** Whether the endpoint carries the flag annotation `flag`. */
const annotated = <I>(endpoint: HttpApiEndpoint.Top, flag: Context.Key<I, boolean>): boolean =>
  Option.getOrElse(Context.getOption(endpoint.annotations as Context.Context<I>, flag), () => false)

/** A response that must not be stored: the transaction rolls back and the client gets it as it is. */
class NotStored extends Data.TaggedError("NotStored")<{ readonly response: HttpServerResponse.HttpServerResponse }> {}

/** A request with the same key finished between our look-up and our lock: our work rolls back and its answer stands. */
class AnswerRefused extends Data.TaggedError("AnswerRefused")<{}> {}

/** 400s (the request was wrong) and 5xx (we failed) are not stored, so a corrected or later retry runs normally. */
const storable = (status: number) => status !== 400 && status < 500

/** A declared API error (`{error, code, message}`) encoded as the HttpApi encodes it; undefined for anything else. */
const encodeDeclaredError = (error: unknown) => {
  if (typeof error !== "object" || error === null) return undefined
  const { code } = error as { readonly code?: unknown }
  const schema = error.constructor
  if (typeof code !== "number" || !Schema.isSchema(schema)) return undefined
  return Schema.encodeUnknownEffect(schema as Schema.Codec<unknown, unknown>)(error).pipe(
    Effect.map((body) =>
      HttpServerResponse.text(JSON.stringify(body), { status: code, contentType: "application/json" })
    ),
    // The error was built by this very schema, so encoding it back cannot fail.
    Effect.orDie
  )
}

/** The body of a buffered response; idempotent routes never stream. */
const bodyBytes = (response: HttpServerResponse.HttpServerResponse): Uint8Array | undefined => {
  switch (response.body._tag) {
    case "Uint8Array":
      return response.body.body
    case "Empty":
      return new Uint8Array(0)
    case "Raw":
      return typeof response.body.body === "string" ? new TextEncoder().encode(response.body.body) : undefined
    default:
      return undefined
  }
}

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse): string | undefined =>
  response.headers["content-type"] ??
  (response.body._tag === "Empty" || response.body._tag === "FormData" ? undefined : response.body.contentType)

const replay = (stored: StoredResponse) => {
  const headers = { "idempotent-replayed": "true" }
  const contentType = stored.headers["content-type"]
  return stored.body.length === 0 && contentType === undefined
    ? HttpServerResponse.empty({ status: stored.status, headers })
    : HttpServerResponse.uint8Array(new Uint8Array(stored.body), {
        status: stored.status,
        headers,
        ...(contentType === undefined ? {} : { contentType })
      })
}

/** The stored response for this key: replayed for the same body, 422 for another. */
const answerStored = (stored: StoredAnswer, fingerprint: string) =>
  stored.fingerprint !== fingerprint
    ? Effect.succeed(keyReused())
    : isStoredOutcome(stored)
      ? Effect.die(new Error("an outcome was stored under a route that does not answer with its work"))
      : Effect.succeed(replay(stored))

const markReplayed = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeader(response, "idempotent-replayed", "true")

/** `response` again, or its declared error as the HttpApi encodes it, marked as replayed. */
const replayed = <E>(response: Effect.Effect<HttpServerResponse.HttpServerResponse, E>) =>
  Effect.exit(response).pipe(
    Effect.flatMap((exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(markReplayed(exit.value))
      const declared =
        Cause.hasDies(exit.cause) || Cause.hasInterrupts(exit.cause)
          ? undefined
          : encodeDeclaredError(Option.getOrUndefined(Cause.findErrorOption(exit.cause)))
      return declared === undefined ? Effect.failCause(exit.cause) : Effect.map(declared, markReplayed)
    })
  )

const keyReused = () =>
  errorResponse(422, "idempotency_key_reused", "this Idempotency-Key was already used with a different request body")

const keyInUse = () =>
  errorResponse(
    409,
    "idempotency_key_in_use",
    "a request with this Idempotency-Key is still in progress; retry shortly",
    {
      headers: { "retry-after": "1" }
    }
  )

/**
 * The `Idempotent` middleware. A key whose answer is stored is replayed (or refused with 422 for another body) at
 * once, without the lock. Otherwise the whole request runs in one transaction that holds the scope's lock (taken
 * without waiting: 409 when held), runs the handler, and stores its final response in the same transaction, so the
 * work and its stored answer commit together or not at all (a crash rolls both back). The handler runs under a
 * savepoint: when it fails with an answer that is stored (a declared 4xx), its writes are undone before the answer is
 * stored and committed, exactly as a request without a key rolls them back. When a request with the same key finished
 * in between, the store refuses the second answer: this request's work rolls back and the stored answer is given
 * instead. Card numbers, CVCs and secrets must never reach it: attach it only to routes whose responses carry none.
 */
export const IdempotencyLive = Layer.effect(
  Idempotent,
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const transactor = yield* Transactor

    /**
     * The answer to store for a handler's outcome, with the response it stands for: a success or a declared error
     * encoded as the HttpApi encodes it, unless its status is not stored. None for everything else (defects,
     * interruptions, undeclared errors, 400s and 5xx), which the caller passes on unstored.
     */
    const answerOf = <A extends HttpServerResponse.HttpServerResponse, E>(exit: Exit.Exit<A, E>, fingerprint: string) =>
      Effect.gen(function* () {
        let response: HttpServerResponse.HttpServerResponse
        if (Exit.isSuccess(exit)) {
          response = exit.value
        } else {
          const declared =
            Cause.hasDies(exit.cause) || Cause.hasInterrupts(exit.cause)
              ? undefined
              : encodeDeclaredError(Option.getOrUndefined(Cause.findErrorOption(exit.cause)))
          if (declared === undefined) return Option.none()
          response = yield* declared
        }
        if (!storable(response.status)) return Option.none()
        const body = bodyBytes(response)
        if (body === undefined) return yield* Effect.die(new Error("idempotent routes must answer a buffered body"))
        const contentType = contentTypeOf(response)
        const stored: StoredResponse = {
          fingerprint,
          status: response.status,
          headers: contentType === undefined ? {} : { "content-type": contentType },
          body,
          createdAt: yield* nowIso
        }
        return Option.some({ response, stored })
      })

    const attempt = <E, R>(
      scope: IdempotencyScope,
      fingerprint: string,
      handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(transactor.withSavepoint(handler))
        const answer = yield* answerOf(exit, fingerprint)
        if (Option.isNone(answer)) {
          return yield* Exit.isSuccess(exit) ? new NotStored({ response: exit.value }) : Effect.failCause(exit.cause)
        }
        if (!(yield* store.save(scope, answer.value.stored))) return yield* new AnswerRefused()
        return answer.value.response
      })

    /** The `IdempotentCall` of a request whose handler stores its domain's outcome with its work. */
    const callOf = (scope: IdempotencyScope, fingerprint: string, stored: Option.Option<Schema.Json>) =>
      IdempotentCall.of({
        once: { scope, fingerprint },
        stored,
        replayed,
        unanswered: (refusal, render) =>
          refusal._tag === "IdempotencyKeyInUse"
            ? Effect.succeed(keyInUse())
            : refusal.answer.fingerprint !== fingerprint
              ? Effect.succeed(keyReused())
              : isStoredOutcome(refusal.answer)
                ? replayed(render(refusal.answer.outcome))
                : Effect.succeed(replay(refusal.answer))
      })

    return Idempotent.of((httpEffect, { endpoint }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers[HEADER]
        if (request.method !== "POST") return yield* httpEffect
        if (key === undefined) {
          return annotated(endpoint, IdempotencyKeyRequired)
            ? keyIssue("idempotency_key_required", "this route requires the Idempotency-Key header")
            : yield* httpEffect
        }
        if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
          return keyIssue("validation_failed", `the Idempotency-Key header must be 1..${MAX_KEY_LENGTH} characters`)
        }
        const agent = yield* CurrentAgent
        // An unreadable body (over 1 MiB, malformed) reaches JsonErrors, which answers 413 or 400 invalid_json.
        const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
        const scope: IdempotencyScope = {
          teamId: agent.teamId,
          mode: agent.mode,
          credentialId: agent.keyId,
          method: request.method,
          path: request.url.split("?")[0] ?? request.url,
          key
        }
        const fingerprint = yield* fingerprintBody(body)
        const outcome = yield* store.find(scope).pipe(
          Effect.flatMap((known) => {
            if (!annotated(endpoint, AnswersWithItsWork)) {
              return Option.isSome(known)
                ? Effect.asSome(answerStored(known.value, fingerprint))
                : store.exclusive(scope, attempt(scope, fingerprint, httpEffect))
            }
            // A stored outcome of the same body is rendered by the handler; a response stored before outcomes were
            // (ADR 0047), or another body's answer, is answered here.
            const outcome = Option.flatMap(known, (answer) =>
              isStoredOutcome(answer) && answer.fingerprint === fingerprint
                ? Option.some(answer.outcome)
                : Option.none()
            )
            return Option.isSome(known) && Option.isNone(outcome)
              ? Effect.asSome(answerStored(known.value, fingerprint))
              : Effect.asSome(Effect.provideService(httpEffect, IdempotentCall, callOf(scope, fingerprint, outcome)))
          }),
          Effect.catchIf(
            (e): e is NotStored => e instanceof NotStored,
            (e) => Effect.succeedSome(e.response)
          ),
          Effect.catchIf(
            (e): e is AnswerRefused => e instanceof AnswerRefused,
            () =>
              Effect.flatMap(
                store.find(scope),
                Option.match({
                  onNone: () => Effect.succeedNone,
                  onSome: (stored) => Effect.asSome(answerStored(stored, fingerprint))
                })
              )
          ),
          Effect.catchIf(isPersistenceUnavailable, () => Effect.succeedSome(storeUnavailableResponse()))
        )
        return Option.getOrElse(outcome, keyInUse)
      })
    )
  })
)

import { CardAuthorizationRequest, CardAuthorizations } from "@svc/domain"
import { Context, Effect, Layer, Option, Result, Schema, Tracer } from "effect"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  errorAnswer,
  jsonAnswer,
  type PayloadIssue,
  parseObject,
  payloadIssues,
  unstorableInput,
  verifiedBody
} from "./InboundRequest.ts"
import { InboundSecrets } from "./InboundSecrets.ts"
import type { InboundEndpoint } from "./verify/Endpoints.ts"

/** The endpoint the card issuer asks in real time whether to approve an authorization. */
export const AUTH_STREAM_ENDPOINT = "card-issuing-a/auth-stream"

const decodeRequest = Schema.decodeUnknownExit(CardAuthorizationRequest)

/** 400 `invalid_payload` naming the first field at fault in `message`, every one in `details`. */
const invalidPayload = (issues: ReadonlyArray<PayloadIssue>) => {
  const [first] = issues
  return jsonAnswer(400, {
    error: "invalid_payload",
    code: 400,
    message: first === undefined ? "invalid authorization request" : `${first.path}: ${first.message}`,
    details: issues
  })
}

/**
 * The auth-stream: verified as the intake verifies card-issuing-a (Standard Webhooks, the same secret), then decided
 * at once by `CardAuthorizations` and answered 200 with the decision. Nothing is stored as an inbound event: the
 * stored authorization is the request's record, and a replayed token answers it again.
 */
export class AuthorizationStream extends Context.Service<
  AuthorizationStream,
  {
    readonly handle: (
      endpoint: InboundEndpoint,
      request: HttpServerRequest.HttpServerRequest
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  }
>()("@svc/adapters-webhooks/AuthorizationStream") {
  static readonly layer = Layer.effect(
    AuthorizationStream,
    Effect.gen(function* () {
      const secrets = yield* InboundSecrets
      const authorizations = yield* CardAuthorizations
      // A raw route's request runs on the server's context, without the app's settings (tolerance, deadline): the
      // decision runs on the context this layer was built with, under the request's span. Adding the span is one
      // overlay; merging the two contexts would copy the app's whole context on every request.
      const built = yield* Effect.context<never>()
      const withAppSettings = <A, E>(effect: Effect.Effect<A, E>) =>
        Effect.updateContext(effect, (request: Context.Context<never>) =>
          Option.match(Context.getOption(request, Tracer.ParentSpan), {
            onNone: () => built,
            onSome: (span) => Context.add(built, Tracer.ParentSpan, span)
          })
        )

      const handle = (endpoint: InboundEndpoint, request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const verified = yield* verifiedBody(endpoint, request, secrets.of(endpoint))
          if (Result.isFailure(verified)) return verified.failure
          const object = parseObject(verified.success)
          if (object === undefined) return errorAnswer(400, "invalid_payload", "the body must be a JSON object")
          const unstorable = unstorableInput(object)
          if (unstorable !== undefined) return invalidPayload([unstorable])
          const decoded = decodeRequest(object, { errors: "all" })
          if (decoded._tag === "Failure") {
            return invalidPayload(payloadIssues(decoded.cause, "invalid authorization request"))
          }
          return jsonAnswer(200, yield* withAppSettings(authorizations.authorize(decoded.value)))
        }).pipe(Effect.withSpan("AuthorizationStream.handle"))

      return AuthorizationStream.of({ handle })
    })
  )
}

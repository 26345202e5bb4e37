import { invalidTextMessage, jsonInputIssue, jsonTooDeepMessage } from "@svc/domain"
import { Effect, Layer, Option, Result, Schema, SchemaIssue, type Types } from "effect"
import { HttpServerRequest, UrlParams } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { InputLimits } from "../../api/shared/index.ts"

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

const bodyOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Option.Option<unknown>> => {
  if (request.method === "GET" || request.method === "HEAD") return Effect.succeedNone
  const contentType = request.headers["content-type"] ?? "application/json"
  const read = /x-www-form-urlencoded/iu.test(contentType)
    ? Effect.map(request.urlParamsBody, (params) => Option.some<unknown>(UrlParams.toRecord(params)))
    : /json/iu.test(contentType)
      ? Effect.map(request.text, (text) => (text === "" ? Option.none() : parseJson(text)))
      : Effect.succeedNone
  return Effect.map(Effect.result(read), (result) => (Result.isSuccess(result) ? result.success : Option.none()))
}

const refusal = (kind: "Query" | "Payload", value: unknown): Option.Option<HttpApiError.HttpApiSchemaError> => {
  const issue = jsonInputIssue(value)
  if (issue === undefined) return Option.none()
  const cause =
    issue._tag === "TooDeep"
      ? new SchemaIssue.InvalidValue({ message: jsonTooDeepMessage })
      : new SchemaIssue.Pointer(issue.path, new SchemaIssue.InvalidValue({ message: invalidTextMessage }))
  return Option.some(new HttpApiError.HttpApiSchemaError({ kind, cause: new Schema.SchemaError(cause) }))
}

/**
 * The InputLimits middleware: a query or body (JSON or form) nested deeper than 64 levels, or holding a key or string
 * with NUL or an unpaired surrogate, fails as a schema error before decoding, so nothing of it reaches a store.
 */
export const InputLimitsLive = Layer.succeed(InputLimits, (httpEffect) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = UrlParams.toRecord(UrlParams.fromInput(new URL(request.url, "http://localhost").searchParams))
    const body = yield* bodyOf(request)
    const refused = Option.orElse(refusal("Query", query), () =>
      Option.flatMap(body, (value) => refusal("Payload", value))
    )
    if (Option.isSome(refused)) return yield* Effect.fail(refused.value as unknown as Types.unhandled)
    return yield* httpEffect
  })
)

import { Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { toApiError } from "./ApiError.ts"
import { CallResponse, type ClientOptions, makeClient } from "./Client.ts"
import { mapRoutes, type Routes } from "./Routes.ts"

/**
 * Every route of the contract as `client.<group>.<endpoint>(request)` answering a Promise: the same names and
 * requests as the Effect client. A failed call rejects with an `ApiError`.
 */
export type PromiseClient = Routes<"promise">

/** Runs one call, turning its failure into an ApiError that carries the headers of the call's last response. */
const runCall = (call: Effect.Effect<unknown, unknown>): Promise<unknown> => {
  const response: CallResponse["Service"] = { last: undefined }
  return Effect.runPromise(
    call.pipe(
      Effect.catch((failure) => Effect.flatMap(toApiError(failure, response.last), Effect.fail)),
      Effect.provideService(CallResponse, response)
    )
  )
}

/**
 * A Promise client over `fetch`, with the published retry policy (numbers overridable through `retry`). Without a
 * `token` it fetches with `credentials: "same-origin"`, so a dashboard on the service's origin calls with its cookie.
 */
export const createClient = (options: ClientOptions): PromiseClient => {
  const fetchLayer =
    options.token === undefined
      ? FetchHttpClient.layer.pipe(
          Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { credentials: "same-origin" }))
        )
      : FetchHttpClient.layer
  const client = Effect.runSync(makeClient(options).pipe(Effect.provide(fetchLayer)))
  return mapRoutes(
    client,
    (_group, _endpoint, route) => (request) => runCall(route(request) as Effect.Effect<unknown, unknown>)
  ) as unknown as PromiseClient
}

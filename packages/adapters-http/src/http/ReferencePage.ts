import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { Api } from "../api/Api.ts"

/**
 * The reference page (`GET /docs`): Scalar's page over the API's OpenAPI document, made at its first request rather
 * than at start, so a process nobody reads the reference on never loads Scalar's 3 MB script (ADR 0063). The page is
 * `HttpApiScalar`'s own, served by a handler of its own built once; the service's middleware applies to its answer
 * like any other.
 */
export const ReferencePage = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const page = yield* Effect.cached(
      Effect.sync(
        () => HttpRouter.toWebHandler(HttpApiScalar.layer(Api, { path: "/docs" }), { disableLogger: true }).handler
      )
    )
    yield* router.add(
      "GET",
      "/docs",
      Effect.gen(function* () {
        const handler = yield* page
        const answer = yield* Effect.promise(() => handler(new Request("http://reference.local/docs")))
        return HttpServerResponse.fromWeb(answer)
      })
    )
  })
)

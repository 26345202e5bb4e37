import { constantTimeEqual } from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { errorResponse } from "../middleware/index.ts"

/**
 * `GET /metrics`: every metric of the process in the Prometheus text format (0.0.4), for a scraper presenting
 * `Authorization: Bearer <token>` (compared in constant time); anything else is 401. `refresh` runs first and sets the
 * gauges that are read at scrape time; if it fails the scrape still answers, with the gauges as last set.
 */
export const MetricsRoute = <E, R>(token: Redacted.Redacted, refresh: Effect.Effect<void, E, R>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const router = yield* HttpRouter.HttpRouter
      const refreshGauges = refresh.pipe(
        Effect.provide(yield* Effect.context<R>()),
        Effect.catchCause((cause) => Effect.logWarning("metrics gauges not refreshed", cause))
      )
      const expected = `Bearer ${Redacted.value(token)}`
      yield* router.add(
        "GET",
        "/metrics",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!constantTimeEqual(request.headers.authorization ?? "", expected)) {
            return errorResponse(401, "unauthorized", "a valid metrics token is required", {
              headers: { "www-authenticate": "Bearer" }
            })
          }
          yield* refreshGauges
          return HttpServerResponse.text(yield* PrometheusMetrics.format(), {
            contentType: "text/plain; version=0.0.4; charset=utf-8"
          })
        })
      )
    })
  )

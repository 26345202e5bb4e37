import { Clock, Effect, Metric, Option } from "effect"
import { HttpEffect, HttpRouter } from "effect/http"

/** The route label of a request no route matched: raw paths would put ids and probes into the label set. */
const UNMATCHED = "unmatched"

const LATENCY_BOUNDARIES_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const requestCounter = (method: string, route: string, statusClass: string) =>
  Metric.counter("http_requests_total", {
    description: "HTTP requests answered, by method, route template and status class",
    attributes: { method, route, status_class: statusClass }
  })

const latencyHistogram = (method: string, route: string) =>
  Metric.histogram("http_request_duration_seconds", {
    description: "Time from receiving an HTTP request to sending its response, by method and route template",
    attributes: { method, route },
    boundaries: LATENCY_BOUNDARIES_SECONDS
  })

/** One metric per label set, made on first use: a request then only looks its metric up. */
const memo = <M>() => {
  const made = new Map<string, M>()
  return (key: string, make: () => M): M => {
    let metric = made.get(key)
    if (metric === undefined) {
      metric = make()
      made.set(key, metric)
    }
    return metric
  }
}

const counters = memo<Metric.Counter<number>>()
const histograms = memo<Metric.Histogram<number>>()

/**
 * Counts every answered request (`http_requests_total`) and records its latency (`http_request_duration_seconds`),
 * labelled by the matched route's template (never the raw path) and the status class, just before the response is
 * sent, so errors are counted too; `unmatched` is a request no route took (an unknown path, or one a middleware inside
 * this one answered first, such as a 429 of the rate limit). No I/O per request: only in-process metric updates.
 *
 * The route is read as the routes' effect ends: a global middleware registered inside this one that provides a
 * service would restore the context without it, so this one must be registered after those (see `apps/api`).
 */
export const RequestMetrics = HttpRouter.middleware()(
  Effect.succeed((httpEffect) =>
    Effect.gen(function* () {
      const context = yield* Effect.context<never>()
      const clock = yield* Clock.Clock
      const startedNanos = clock.currentTimeNanosUnsafe()
      let route = UNMATCHED
      // Updated synchronously, answering with a completed effect: the server then sends the response on its fast path.
      yield* HttpEffect.appendPreResponseHandler((request, response) => {
        const elapsedSeconds = Number(clock.currentTimeNanosUnsafe() - startedNanos) / 1e9
        const statusClass = `${Math.floor(response.status / 100)}xx`
        counters(`${request.method} ${route} ${statusClass}`, () =>
          requestCounter(request.method, route, statusClass)
        ).updateUnsafe(1, context)
        histograms(`${request.method} ${route}`, () => latencyHistogram(request.method, route)).updateUnsafe(
          elapsedSeconds,
          context
        )
        return Effect.succeed(response)
      })
      const exit = yield* Effect.exit(httpEffect)
      const matched = yield* Effect.serviceOption(HttpRouter.RouteContext)
      if (Option.isSome(matched)) route = matched.value.route.path
      return yield* exit
    })
  ),
  { global: true }
)

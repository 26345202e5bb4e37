import { MetricsRoute } from "@svc/adapters-http"
import { ApprovalsRepo, InboundEventStore, nowIso, WebhookDeliveriesRepo } from "@svc/domain"
import { ConfigProvider, Effect, Layer, Metric, Option, Ref, References, Tracer } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientRequest, HttpMiddleware, UrlParams } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { SqlClient } from "effect/sql"
import { backgroundJobsOn, metricsToken } from "./Config.ts"
import { JobsLeadership } from "./Leadership.ts"

/** The service name spans carry unless OTEL_SERVICE_NAME says otherwise. */
const SERVICE_NAME = "svc-api"

/**
 * Query parameters whose values spans show as `<redacted>` (matched anywhere in the name, any case): the library's
 * default list names only cloud signatures, and customers' webhook URLs may carry their own tokens.
 */
const REDACTED_QUERY_NAMES = [/token|secret|key|sig|pass|auth|code|credential/iu]

/** Probes and scrapes: frequent, uninteresting, and they would bury the requests worth a trace. */
const UNTRACED_PATHS = new Set(["/health", "/health/ready", "/metrics"])

const pathOf = (url: string) => {
  const end = url.search(/[?#]/u)
  return end === -1 ? url : url.slice(0, end)
}

/** The collector's URL as the log shows it: without credentials, query or fragment. */
const collectorOf = (request: HttpClientRequest.HttpClientRequest): string => {
  if (!URL.canParse(request.url)) return "(an invalid URL)"
  const url = new URL(request.url)
  url.username = ""
  url.password = ""
  url.search = ""
  url.hash = ""
  return url.toString()
}

/**
 * The HTTP client the trace exporter posts with: the first failed export of an outage (the collector unreachable, or
 * answering an error) logs one warning naming the collector, and the first export that gets through again one info
 * line. The exporter itself retries and then drops its spans silently, once per batch.
 */
const CollectorClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const failing = yield* Ref.make(false)
    const failed = (request: HttpClientRequest.HttpClientRequest, why: string) =>
      Effect.flatMap(Ref.getAndSet(failing, true), (already) =>
        already
          ? Effect.void
          : Effect.logWarning(
              `traces are not exported: the collector ${collectorOf(request)} ${why}; spans are dropped until it ` +
                "accepts them again (logged once per outage)"
            )
      )
    const recovered = (request: HttpClientRequest.HttpClientRequest) =>
      Effect.flatMap(Ref.getAndSet(failing, false), (was) =>
        was ? Effect.logInfo(`traces are exported again to the collector ${collectorOf(request)}`) : Effect.void
      )
    return client.pipe(
      HttpClient.tap((response) =>
        response.status >= 400 ? failed(response.request, `answered ${response.status}`) : recovered(response.request)
      ),
      HttpClient.tapError((error) => failed(error.request, "could not be reached"))
    )
  })
).pipe(Layer.provide(FetchHttpClient.layer))

/**
 * Span registration off when the tracer in force is the runtime's own (no exporter was configured): spans would be
 * built for nobody, so `Effect.fn` and every SQL statement skip them.
 */
const SpansOnlyWhenExported = Layer.unwrap(
  Effect.map(Effect.service(Tracer.Tracer), (tracer) =>
    tracer === Tracer.nativeTracer ? Layer.succeed(References.TracerEnabled)(false) : Layer.empty
  )
)

/**
 * Traces over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set:
 * a server span per HTTP request (named by its method, with `http.route` set to the route template) and the spans
 * of every `Effect.fn` below it and of the background workers' steps. The standard variables apply:
 * `OTEL_SERVICE_NAME` (default `svc-api`), `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER=none`. Without an endpoint no tracer is
 * installed and no span is built at all (`SpansOnlyWhenExported`), so requests take the untraced path. Health probes
 * and /metrics are never traced; request and response headers are never recorded, and query parameters that look like
 * credentials are redacted. A collector that cannot be reached is logged once per outage (`CollectorClient`), never
 * per batch, and never stops the service.
 */
export const TracingLive = Layer.mergeAll(
  SpansOnlyWhenExported.pipe(
    Layer.provideMerge(
      OtlpTracer.layerFromConfig().pipe(
        Layer.provide([OtlpSerialization.layerJson, CollectorClient]),
        // Fallbacks only: effect exports only when OTEL_TRACES_EXPORTER names otlp, which OpenTelemetry makes the default.
        Layer.provide(
          ConfigProvider.layerAdd(
            ConfigProvider.fromUnknown({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SERVICE_NAME: SERVICE_NAME })
          )
        )
      )
    )
  ),
  Layer.succeed(HttpMiddleware.TracerDisabledWhen)((request) => UNTRACED_PATHS.has(pathOf(request.url))),
  Layer.succeed(UrlParams.CurrentRedactedNames)(REDACTED_QUERY_NAMES)
)

const gauge = (name: string, description: string) => Metric.gauge(name, { description })

const pendingApprovals = gauge("spend_approvals_pending", "Approvals waiting for a human decision")
const deliveriesDue = gauge("webhook_deliveries_due", "Webhook deliveries due now and not yet taken by a worker")
const inboundParked = gauge(
  "inbound_events_parked",
  "Inbound provider events parked after failing, awaiting an operator"
)
const databaseConnections = gauge(
  "db_connections",
  "Connections open to the service's database (all instances), by state (active, idle, idle in transaction, ...)"
)

const jobsLeader = gauge(
  "background_jobs_leader",
  "1 while this process leads the background jobs (holds the leader lock, ADR 0050), else 0"
)

/** Sets `background_jobs_leader` from this process's part in the election; 0 with `BACKGROUND_JOBS=off`. */
const leaderGauge = Effect.gen(function* () {
  const leads = (yield* backgroundJobsOn) && (yield* (yield* JobsLeadership).leading)
  yield* Metric.update(jobsLeader, leads ? 1 : 0)
})

/** Sets the backlog gauges from the stores: three counting queries. */
const backlogGauges = Effect.gen(function* () {
  const approvals = yield* ApprovalsRepo
  const deliveries = yield* WebhookDeliveriesRepo
  const inbound = yield* InboundEventStore
  const [pending, due, parked] = yield* Effect.all(
    [approvals.countPending, Effect.flatMap(nowIso, deliveries.countDue), inbound.countParked],
    { concurrency: "unbounded" }
  )
  yield* Metric.update(pendingApprovals, pending)
  yield* Metric.update(deliveriesDue, due)
  yield* Metric.update(inboundParked, parked)
})

/** Every connection state reported so far: a state no longer seen is reported as 0, not as its last count. */
const connectionStates = new Set<string>()

/**
 * Sets `db_connections{state}` from `pg_stat_activity` when the service runs on SQL: the driver's pool does not
 * expose its own counts, and the server's view also shows connections stuck idle in a transaction.
 */
const databaseGauges = Effect.gen(function* () {
  const client = yield* Effect.serviceOption(SqlClient.SqlClient)
  if (Option.isNone(client)) return
  const sql = client.value
  const rows = yield* sql<{ state: string; count: number | string }>`
    SELECT coalesce(state, 'unknown') AS state, count(*) AS count FROM pg_stat_activity
    WHERE datname = current_database() GROUP BY 1`
  const counts = new Map(rows.map((row) => [row.state, Number(row.count)]))
  for (const state of counts.keys()) connectionStates.add(state)
  yield* Effect.forEach(
    connectionStates,
    (state) => Metric.update(Metric.withAttributes(databaseConnections, { state }), counts.get(state) ?? 0),
    { discard: true }
  )
})

/**
 * `GET /metrics` when `METRICS_TOKEN` is set (the bearer token scrapers present); without it the route does not
 * exist. Each scrape first sets the gauges (whether this process leads the background jobs, backlogs, database
 * connections): four cheap counting queries per scrape, none per request.
 */
export const MetricsLive = Layer.unwrap(
  Effect.gen(function* () {
    const token = yield* metricsToken
    return Option.match(token, {
      onNone: () => Layer.empty,
      onSome: (t) => MetricsRoute(t, Effect.all([leaderGauge, backlogGauges, databaseGauges], { discard: true }))
    })
  })
)

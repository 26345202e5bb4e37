import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { answerClientErrorsAsJson, Readiness } from "@svc/adapters-http"
import { DatabaseInfo, DatabaseStartup, PortsPg } from "@svc/adapters-pg"
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { appLayer } from "./App.ts"
import { httpServerConfig, serviceConfig } from "./Config.ts"
import { JobsLeadershipLive } from "./Leadership.ts"
import { TracingLive } from "./Observability.ts"
import { Database, SqlReadiness } from "./Persistence.ts"
import { Sha256Node } from "./Sha256Node.ts"
import { BackgroundJobsGate } from "./Workers.ts"

/**
 * The Node server's limits, shorter than Node's defaults (a 300 s request timeout): the request headers within
 * `HTTP_HEADERS_TIMEOUT_SECONDS` (default 10), the whole request, body included, within `HTTP_REQUEST_TIMEOUT_SECONDS`
 * (default 30, also the longest a socket may stay silent), and an idle keep-alive connection closed after
 * `HTTP_KEEP_ALIVE_TIMEOUT_SECONDS` (default 5). Headers never get longer than the whole request. What the parser
 * refuses (headers too large, malformed requests, timeouts) is answered with the contract's JSON error body.
 */
const nodeServer = (settings: {
  readonly requestMs: number
  readonly headersMs: number
  readonly keepAliveMs: number
}) => {
  const { requestMs, keepAliveMs } = settings
  const headersMs = Math.min(settings.headersMs, requestMs)
  return () =>
    answerClientErrorsAsJson(
      createServer({
        headersTimeout: headersMs,
        requestTimeout: requestMs,
        keepAliveTimeout: keepAliveMs,
        // Node checks both timeouts on this period (30 s by default), so a short timeout needs a short period.
        connectionsCheckingInterval: Math.min(1000, headersMs)
      }).setTimeout(requestMs)
    )
}

/** The database is healthy once the start-up migrations ran and it answers. */
const StartupReadiness = Layer.effect(
  Readiness,
  Effect.gen(function* () {
    const startup = yield* DatabaseStartup
    const database = yield* Readiness
    return Readiness.of({
      dependencies: database.dependencies.map((dependency) => ({
        name: dependency.name,
        check: Effect.flatMap(startup.migrated, (migrated) => (migrated ? dependency.check : Effect.succeed(false)))
      }))
    })
  })
).pipe(Layer.provide(SqlReadiness))

/** The background jobs start once the migrations ran (never if the start-up gave up: the process is ending). */
const JobsAfterMigrations = Layer.effect(
  BackgroundJobsGate,
  Effect.gen(function* () {
    const startup = yield* DatabaseStartup
    return Effect.catch(startup.await, () => Effect.never)
  })
)

/** Logs the address as soon as the server listens, and the start of a shutdown before the server drains. */
const AnnounceLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const database = yield* DatabaseInfo
    yield* Effect.logInfo(
      `listening on ${HttpServer.formatAddress(server.address)} (pid ${process.pid}) with ${database.description}`
    )
    yield* Effect.addFinalizer(() => Effect.logInfo("shutting down: finishing the requests in flight"))
  })
)

const ServerLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* serviceConfig
    const { port, host, ...timeouts } = yield* httpServerConfig
    const app = appLayer(config, PortsPg, StartupReadiness)
    return AnnounceLive.pipe(
      Layer.provide(HttpRouter.serve(app, { disableListenLog: true, disableLogger: true })),
      Layer.provide([JobsAfterMigrations, JobsLeadershipLive]),
      Layer.provide(NodeHttpServer.layer(nodeServer(timeouts), { port, host, gracefulShutdownTimeout: "10 seconds" })),
      Layer.provideMerge(Database),
      Layer.provide(Sha256Node),
      Layer.provide(TracingLive)
    )
  })
)

/**
 * Serves in this process until interrupted: listening at once (`/health` answers, `/health/ready` says 503 while the
 * database is unreachable), ready once the migrations ran; fails if the database start-up gives up.
 */
export const serveUntilStopped = Effect.scoped(
  Effect.gen(function* () {
    const services = yield* Layer.build(ServerLive)
    yield* Context.get(services, DatabaseStartup).await
    yield* Effect.logInfo("ready: the database answers and its migrations ran")
    return yield* Effect.never
  })
)

import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { DatabaseInfo, DatabaseLive } from "@svc/adapters-pg"
import { Cause, Config, Effect, Exit, Layer, Runtime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { appOnPostgres, serviceConfig, TracingLive } from "./App.ts"
import { Sha256Node } from "./Sha256Node.ts"

/** Logs the address once the routes are served, and the start of a shutdown before the server drains its requests. */
const AnnounceLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const database = yield* DatabaseInfo
    yield* Effect.logInfo(`listening on ${HttpServer.formatAddress(server.address)} with ${database.description}`)
    yield* Effect.addFinalizer(() => Effect.logInfo("shutting down: finishing the requests in flight"))
  })
)

const ServerLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* serviceConfig
    const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
    return AnnounceLive.pipe(
      Layer.provide(HttpRouter.serve(appOnPostgres(config), { disableListenLog: true, disableLogger: true })),
      Layer.provide(NodeHttpServer.layer(createServer, { port, host, gracefulShutdownTimeout: "10 seconds" })),
      Layer.provide(DatabaseLive),
      Layer.provide(Sha256Node),
      Layer.provide(TracingLive)
    )
  })
)

/** A requested shutdown (SIGTERM, SIGINT) that drained cleanly exits 0; anything else keeps the default exit codes. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Layer.launch(ServerLive).pipe(NodeRuntime.runMain({ teardown }))

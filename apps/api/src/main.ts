import cluster from "node:cluster"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Runtime } from "effect"
import { supervise } from "./Cluster.ts"
import { webConcurrency } from "./Config.ts"
import { serveUntilStopped } from "./Server.ts"

/** A requested shutdown (SIGTERM, SIGINT) that drained cleanly exits 0; anything else keeps the default exit codes. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/** `WEB_CONCURRENCY` above 1 makes this process the cluster primary; a worker, or a single process, serves. */
const main = Effect.gen(function* () {
  const workers = yield* webConcurrency
  return yield* cluster.isPrimary && workers > 1 ? supervise(workers) : serveUntilStopped
})

main.pipe(NodeRuntime.runMain({ teardown }))

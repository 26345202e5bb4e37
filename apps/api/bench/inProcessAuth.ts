/**
 * The auth-stream's decision without HTTP: `CardAuthorizations.authorize` run in the bench process, on the domain
 * and Postgres adapters the service uses, against the service's database. Beside the auth-stream scenarios it
 * splits an authorization's latency into the decision (the domain, its SQL and the database) and the rest (HTTP,
 * the signature check, the route).
 */

import { GCProfiler, getHeapStatistics } from "node:v8"
import { SimulatedCardIssuer } from "@svc/adapters-memory"
import { clientForUrl, PortsPg } from "@svc/adapters-pg"
import { type CardAuthorizationRequest, CardAuthorizations, Ledger } from "@svc/domain"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { openLoop } from "./openLoop.ts"
import { DURATION_SECONDS, POOL_SIZE } from "./settings.ts"

/**
 * What the heap allocated while `run` ran: what each collection found in use beyond what the one before it kept, and
 * what is in use at the end beyond what the last one kept.
 */
const allocatedDuring = async <A>(run: () => Promise<A>) => {
  const profiler = new GCProfiler()
  let kept = getHeapStatistics().used_heap_size
  profiler.start()
  const result = await run()
  const end = getHeapStatistics().used_heap_size
  let allocated = 0
  for (const gc of profiler.stop().statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - kept
    kept = gc.afterGC.heapStatistics.usedHeapSize
  }
  return { result, allocated: allocated + end - kept }
}

/** `openLoop` of in-process decisions of `requests` (the auth-stream bodies, in turn) at `ratePerSecond`. */
export const inProcessAuthorizations = async (
  name: string,
  url: string,
  requests: ReadonlyArray<CardAuthorizationRequest>,
  ratePerSecond: number
) => {
  const runtime = ManagedRuntime.make(
    CardAuthorizations.layer.pipe(
      Layer.provide(Ledger.layer),
      Layer.provide(SimulatedCardIssuer),
      Layer.provideMerge(PortsPg),
      Layer.provide(clientForUrl(Redacted.make(url), POOL_SIZE))
    )
  )
  try {
    const authorizations = await runtime.runPromise(
      Effect.gen(function* () {
        return yield* CardAuthorizations
      })
    )
    // One decision before the clock starts: the pool's connections and the statements' first compilation.
    let turn = 0
    const decide = () => {
      const request = requests[turn++ % requests.length]
      if (request === undefined) return Promise.resolve(false)
      return runtime.runPromise(
        Effect.map(authorizations.authorize(request), (answer) => answer.approve_response === "APPROVED")
      )
    }
    await decide()
    const { result, allocated } = await allocatedDuring(() =>
      openLoop(name, { attempt: decide, ratePerSecond, seconds: DURATION_SECONDS })
    )
    const decisions = result.requestsPerSecond * DURATION_SECONDS
    console.log(
      `${name}: ${Math.round(allocated / decisions / 1024)} KB allocated a decision (the bench process's heap, the ` +
        "load generator's share included)"
    )
    return result
  } finally {
    await runtime.dispose()
  }
}

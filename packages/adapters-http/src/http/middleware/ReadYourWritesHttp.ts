import { hashSecret, ReadYourWrites } from "@svc/domain"
import { Clock, Duration, Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"

/** The methods that only read; every other one may write. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/** How many callers' last writes a process remembers; past it the oldest are forgotten first. */
const MAX_CALLERS = 100_000

/**
 * Read-your-writes in front of a read replica (ADR 0052). A request that may write (any method but GET, HEAD and
 * OPTIONS) runs with `ReadYourWrites`, so every read it makes is on the primary, and marks its caller for `window`
 * from when it ends; the caller's reads within that window run with `ReadYourWrites` too. A caller is known by a
 * digest of its credentials (the Authorization header and the cookies; the credentials themselves are never kept). The
 * marks live in this process: a caller whose next read reaches another node relies on the replica being the
 * synchronous standby that applies each commit before it is acknowledged (deploy/patroni).
 */
export const ReadYourWritesHttp = (window: Duration.Duration) =>
  HttpRouter.middleware()(
    Effect.sync(() => {
      const windowMs = Duration.toMillis(window)
      /** Caller digest -> until when its reads go to the primary, in the order of their last write. */
      const marks = new Map<string, number>()
      const mark = (caller: string, until: number) => {
        marks.delete(caller)
        marks.set(caller, until)
        if (marks.size > MAX_CALLERS) {
          const oldest = marks.keys().next()
          if (oldest.done !== true) marks.delete(oldest.value)
        }
      }
      return (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const { authorization, cookie } = request.headers
          const writes = !READ_METHODS.has(request.method)
          if (authorization === undefined && cookie === undefined) {
            return yield* writes ? Effect.provideService(httpEffect, ReadYourWrites, true) : httpEffect
          }
          const caller = yield* hashSecret(`${authorization ?? ""}\n${cookie ?? ""}`)
          if (writes) {
            return yield* Effect.provideService(httpEffect, ReadYourWrites, true).pipe(
              Effect.ensuring(
                Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => mark(caller, now + windowMs)))
              )
            )
          }
          const until = marks.get(caller)
          if (until === undefined) return yield* httpEffect
          if ((yield* Clock.currentTimeMillis) < until)
            return yield* Effect.provideService(httpEffect, ReadYourWrites, true)
          marks.delete(caller)
          return yield* httpEffect
        })
    }),
    { global: true }
  )

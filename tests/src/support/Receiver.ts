import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createTlsServer, type ServerOptions } from "node:https"
import { Deferred, Effect } from "effect"
import { TestClock } from "effect/testing"

/** A request the receiver got. */
export interface Received {
  readonly headers: Record<string, string>
  readonly body: string
}

/** How the receiver answers the n-th request (0-based): a status (and headers), or "hang" to never answer. */
export type Script = (n: number) => { readonly status: number; readonly headers?: Record<string, string> } | "hang"

/**
 * A loopback HTTP receiver for outbound webhooks (HTTPS with `tls`), closed with the scope. `arrival(n)` waits for the
 * n-th request (0-based), and dies if it has not come within ten seconds of real time, whatever clock the test runs on.
 */
export const receiver = (script: Script, tls?: ServerOptions) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{
          url: string
          received: Array<Received>
          arrival: (n: number) => Effect.Effect<Received>
          server: ReturnType<typeof createServer>
        }>((resolve) => {
          const received: Array<Received> = []
          const arrivals: Array<Deferred.Deferred<Received>> = []
          const arrivalOf = (n: number) => {
            arrivals[n] ??= Deferred.makeUnsafe<Received>()
            return arrivals[n]
          }
          const handle = (req: IncomingMessage, res: ServerResponse) => {
            const chunks: Array<Buffer> = []
            req.on("data", (c: Buffer) => chunks.push(c))
            req.on("end", () => {
              const n = received.length
              const request = {
                headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
                body: Buffer.concat(chunks).toString("utf8")
              }
              received.push(request)
              Deferred.doneUnsafe(arrivalOf(n), Effect.succeed(request))
              const answer = script(n)
              if (answer === "hang") return
              res.writeHead(answer.status, answer.headers ?? {})
              res.end("ok")
            })
          }
          const server = tls === undefined ? createServer(handle) : createTlsServer(tls, handle)
          server.listen(0, "127.0.0.1", () => {
            const address = server.address()
            const port = typeof address === "object" && address !== null ? address.port : 0
            resolve({
              url: `${tls === undefined ? "http" : "https"}://127.0.0.1:${port}/hook`,
              received,
              arrival: (n) =>
                Deferred.await(arrivalOf(n)).pipe(
                  Effect.timeoutOrElse({
                    duration: "10 seconds",
                    orElse: () => Effect.die(new Error(`request ${n} did not arrive within 10 seconds`))
                  }),
                  TestClock.withLive
                ),
              server
            })
          })
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

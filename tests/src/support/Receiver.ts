import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Effect } from "effect"

/** A request the receiver got. */
export interface Received {
  readonly headers: Record<string, string>
  readonly body: string
}

/** How the receiver answers the n-th request (0-based): a status (and headers), or "hang" to never answer. */
export type Script = (n: number) => { readonly status: number; readonly headers?: Record<string, string> } | "hang"

/** A loopback HTTP receiver for outbound webhooks, closed with the scope. */
export const receiver = (script: Script) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; received: Array<Received>; server: ReturnType<typeof createServer> }>((resolve) => {
          const received: Array<Received> = []
          const server = createServer((req: IncomingMessage, res: ServerResponse) => {
            const chunks: Array<Buffer> = []
            req.on("data", (c: Buffer) => chunks.push(c))
            req.on("end", () => {
              const n = received.length
              received.push({
                headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
                body: Buffer.concat(chunks).toString("utf8")
              })
              const answer = script(n)
              if (answer === "hang") return
              res.writeHead(answer.status, answer.headers ?? {})
              res.end("ok")
            })
          })
          server.listen(0, "127.0.0.1", () => {
            const address = server.address()
            const port = typeof address === "object" && address !== null ? address.port : 0
            resolve({ url: `http://127.0.0.1:${port}/hook`, received, server })
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

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/** One request the proxy forwarded, and what the service answered it (before the proxy lost it or passed it on). */
interface Forwarded {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly status: number
  readonly requestId: string | null
  readonly replayed: boolean
  /** The client got a 503 instead of this answer. */
  readonly lost: boolean
}

/** Headers the proxy does not copy: they describe one hop's connection or encoding, not the message. */
const hopHeaders = new Set(["host", "connection", "content-length", "transfer-encoding", "content-encoding"])

/**
 * A loopback HTTP proxy in front of `upstream()` that records every request it forwards. When `loses` holds of a
 * request, the first such request is forwarded and done by the service, but the client is answered 503 (the answer
 * is lost on the way back); every later one passes through.
 */
export const recordingProxy = async (
  upstream: () => string,
  loses: (method: string, path: string) => boolean = () => false
) => {
  const forwarded: Array<Forwarded> = []
  let lostOne = false
  const server: Server = createServer(async (req, res) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && !hopHeaders.has(name)) headers.set(name, value)
    }
    const method = req.method ?? "GET"
    const answer = await fetch(`${upstream()}${req.url}`, {
      method,
      headers,
      ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) })
    })
    const body = Buffer.from(await answer.arrayBuffer())
    const path = (req.url ?? "").split("?")[0] ?? ""
    const lost = !lostOne && loses(method, path)
    lostOne ||= lost
    forwarded.push({
      method,
      path,
      idempotencyKey: headers.get("idempotency-key") ?? undefined,
      status: answer.status,
      requestId: answer.headers.get("x-request-id"),
      replayed: answer.headers.get("idempotent-replayed") === "true",
      lost
    })
    if (lost) {
      res.writeHead(503, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: "service_unavailable", code: 503, message: "the answer was lost" }))
      return
    }
    const kept = [...answer.headers].filter(([name]) => !hopHeaders.has(name))
    res.writeHead(answer.status, Object.fromEntries(kept))
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

import { connect, createServer, type Socket } from "node:net"

/** Copies `from` to `to`, each chunk `delayMs` later (in order), or at once without a delay. */
const forward = (from: Socket, to: Socket, delayMs: number) => {
  if (delayMs === 0) from.pipe(to)
  else from.on("data", (chunk: Buffer) => setTimeout(() => to.write(chunk), delayMs))
}

/** Where a proxy connects to. */
interface Target {
  readonly host: string
  readonly port: number
}

/**
 * A TCP proxy on 127.0.0.1:`port` to `target`, for a test that brings a dependency "up" after the service started, or
 * that puts it `delayMs` away each way (a database across a network rather than on the same machine). A function
 * target is asked at each new connection, so a test can move a fixed address to a replacement process.
 */
export const startTcpProxy = async (port: number, target: Target | (() => Target), delayMs = 0) => {
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const { host, port: targetPort } = typeof target === "function" ? target() : target
    const upstream = connect(targetPort, host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
    }
    forward(client, upstream, delayMs)
    forward(upstream, client, delayMs)
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", resolve)
  })
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

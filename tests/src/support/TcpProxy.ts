import { connect, createServer, type Socket } from "node:net"

/** Copies `from` to `to`, each chunk `delayMs` later (in order), dropping what arrives while `cut()` holds. */
const forward = (from: Socket, to: Socket, delayMs: number, cut: () => boolean) =>
  from.on("data", (chunk: Buffer) => {
    if (cut()) return
    if (delayMs === 0) to.write(chunk)
    else setTimeout(() => to.write(chunk), delayMs)
  })

/** Where a proxy connects to. */
interface Target {
  readonly host: string
  readonly port: number
}

/**
 * A TCP proxy on 127.0.0.1:`port` to `target`, for a test that brings a dependency "up" after the service started, or
 * that puts it `delayMs` away each way (a database across a network rather than on the same machine), or that cuts
 * the network between the two (`cut`: a partition, where nothing arrives and nothing is refused) and heals it. A
 * function target is asked at each new connection, so a test can move a fixed address to a replacement process.
 */
export const startTcpProxy = async (port: number, target: Target | (() => Target), delayMs = 0) => {
  const sockets = new Set<Socket>()
  let partitioned = false
  const isCut = () => partitioned
  const track = (socket: Socket) => {
    // Each chunk goes on at once, as a router would (Nagle's wait for an ACK would add milliseconds per round trip).
    socket.setNoDelay(true)
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    // Across a partition a connection attempt is never answered: the client waits for its own timeout.
    if (partitioned) return
    const { host, port: targetPort } = typeof target === "function" ? target() : target
    const upstream = connect(targetPort, host)
    track(upstream)
    forward(client, upstream, delayMs, isCut)
    forward(upstream, client, delayMs, isCut)
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", resolve)
  })
  return {
    /** From now on nothing crosses, either way, on open or new connections. */
    cut: () => {
      partitioned = true
    },
    /** Ends the partition: connections that lived through it are reset (their bytes were lost), new ones work. */
    heal: () => {
      for (const socket of sockets) socket.destroy()
      partitioned = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

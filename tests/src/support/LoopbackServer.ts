import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, assert, beforeAll } from "@effect/vitest"
import { ApiError } from "@svc/sdk"

/**
 * Serves an in-process app's `handler` on a loopback socket for the file's tests (opened before them, closed after
 * them), so the SDK talks to it over real HTTP. `baseUrl` answers the socket's address once it is open.
 */
export const loopbackServer = (handler: (request: Request) => Promise<Response>) => {
  const server = createServer(async (req, res) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
    const response = await handler(
      new Request(`http://svc.test${req.url}`, {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) })
      })
    )
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  let baseUrl = ""
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return { baseUrl: () => baseUrl }
}

/** The `ApiError` an SDK call is refused with; the test fails when the call succeeds. */
export const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => assert.fail("expected the call to be refused"),
    (e: unknown) => {
      assert.instanceOf(e, ApiError)
      return e as ApiError
    }
  )

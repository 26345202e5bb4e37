import { connect } from "node:net"
import { assert, beforeAll, describe, it } from "@effect/vitest"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"

/** Sends `bytes` on a new connection and resolves with everything the server wrote before it closed. */
const exchange = (baseUrl: string, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    let answer = ""
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()))
    socket.on("error", () => undefined)
    const held = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server held the connection; it answered so far: ${answer}`))
    }, 20_000)
    socket.on("close", () => {
      clearTimeout(held)
      resolve(answer)
    })
  })

/** A raw HTTP/1.1 answer split into its status, lower-cased headers and body. */
const parse = (answer: string) => {
  const [head = "", body = ""] = answer.split("\r\n\r\n")
  const [statusLine = "", ...lines] = head.split("\r\n")
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()])
  )
  return { status: Number(statusLine.split(" ")[1]), statusLine, headers, body }
}

/** The answer is a complete HTTP/1.1 response carrying the contract's error body `{error, code, message}`. */
const assertJsonError = (answer: string, status: number, error: string) => {
  const { status: actual, statusLine, headers, body } = parse(answer)
  assert.strictEqual(actual, status, answer)
  assert.match(statusLine, /^HTTP\/1\.1 \d{3} \S/u)
  assert.match(headers.get("content-type") ?? "", /^application\/json/u)
  assert.strictEqual(Number(headers.get("content-length")), Buffer.byteLength(body))
  assert.strictEqual(headers.get("connection"), "close")
  assert.match(headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/u)
  const parsed = JSON.parse(body)
  assert.deepStrictEqual(Object.keys(parsed).toSorted(), ["code", "error", "message"])
  assert.deepStrictEqual([parsed.error, parsed.code], [error, status])
  assert.isString(parsed.message)
  return parsed.message as string
}

describe("requests Node's HTTP parser refuses get the contract's JSON error body", () => {
  const processes = apiProcesses()
  let server: Running

  beforeAll(async () => {
    server = await processes.start({}, "listening")
  }, 120_000)

  it("a request whose headers are over Node's 16 KiB limit is 431 headers_too_large", async () => {
    const answer = await exchange(
      server.baseUrl,
      `GET /health HTTP/1.1\r\nHost: svc\r\nX-Padding: ${"a".repeat(20 * 1024)}\r\n\r\n`
    )
    assert.include(assertJsonError(answer, 431, "headers_too_large"), "16 KiB")
  })

  it("a malformed request line, or a malformed header, is 400 bad_request", async () => {
    for (const request of ["NOT AN HTTP REQUEST\r\n\r\n", "GET /health HTTP/1.1\r\nHost svc\r\n\r\n"]) {
      assertJsonError(await exchange(server.baseUrl, request), 400, "bad_request")
    }
  })

  it("a well-formed request on the same server is still answered as usual", async () => {
    const { status, body } = parse(
      await exchange(server.baseUrl, "GET /health HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n\r\n")
    )
    assert.strictEqual(status, 200, body)
  })
})

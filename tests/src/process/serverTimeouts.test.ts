import { connect } from "node:net"
import { assert, beforeAll, describe, it } from "@effect/vitest"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"

/**
 * Opens a connection, sends `head` at once, then one byte of `trickle` every 100 ms: resolves with the seconds until
 * the server closed the connection and what it answered.
 */
const trickle = (baseUrl: string, head: string, trickled: string) =>
  new Promise<{ seconds: number; answer: string }>((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    let answer = ""
    let sent = 0
    let timer: NodeJS.Timeout | undefined
    const started = Date.now()
    socket.on("connect", () => {
      socket.write(head)
      timer = setInterval(() => {
        if (sent < trickled.length && socket.writable) socket.write(trickled[sent++] ?? "")
      }, 100)
    })
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()))
    socket.on("error", () => undefined)
    const held = setTimeout(() => {
      socket.destroy()
      reject(new Error("the server held the connection for 20 s"))
    }, 20_000)
    socket.on("close", () => {
      clearInterval(timer)
      clearTimeout(held)
      resolve({ seconds: (Date.now() - started) / 1000, answer })
    })
  })

/** Nothing, or a 408 with the contract's JSON error body. */
const TIMED_OUT = /^(HTTP\/1\.1 408 [\s\S]*\r\n\r\n\{"error":"request_timeout","code":408,"message":"[^"]+"\}|)$/u

describe("HTTP server timeouts (headers 1 s, whole request 2 s, keep-alive 1 s)", () => {
  const processes = apiProcesses()
  let server: Running

  beforeAll(async () => {
    server = await processes.start(
      { HTTP_HEADERS_TIMEOUT_SECONDS: "1", HTTP_REQUEST_TIMEOUT_SECONDS: "2", HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "1" },
      "listening"
    )
  }, 120_000)

  it("closes a connection whose body trickles in, within about the request timeout", async () => {
    const head = "POST /teams HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
    const { seconds, answer } = await trickle(server.baseUrl, head, `{"name":"${"x".repeat(480)}"}`)
    assert.isTrue(seconds >= 1.5 && seconds < 5, `closed after ${seconds} s`)
    assert.match(answer, TIMED_OUT)
  })

  it("closes a connection whose headers trickle in, within about the headers timeout", async () => {
    const { seconds, answer } = await trickle(server.baseUrl, "GET /health HTTP/1.1\r\n", "X-Slow: ".repeat(100))
    assert.isTrue(seconds >= 0.8 && seconds < 3.5, `closed after ${seconds} s`)
    assert.match(answer, TIMED_OUT)
  })

  it("answers a prompt request, then closes the idle keep-alive connection after about a second", async () => {
    const { seconds, answer } = await trickle(server.baseUrl, "GET /health HTTP/1.1\r\nHost: svc\r\n\r\n", "")
    assert.match(answer, /^HTTP\/1\.1 200/u)
    assert.isTrue(seconds >= 0.8 && seconds < 3.5, `closed after ${seconds} s`)
  })
})

import { maxHeaderSize, type Server, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { errorBody } from "./ErrorResponses.ts"

type Refusal = readonly [status: number, error: string, message: string]

/** How each refusal of Node's HTTP parser is answered, by its error code; any other is a malformed request. */
const REFUSALS: Readonly<Record<string, Refusal>> = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", `the request headers are over ${maxHeaderSize / 1024} KiB`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "payload_too_large", "the request body's chunk extensions are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "the request did not arrive within the server's time limit"]
}
const MALFORMED: Refusal = [400, "bad_request", "the request is not valid HTTP/1.1"]

/** A complete HTTP/1.1 response carrying the contract's error body, after which the connection closes. */
const rawResponse = ([status, error, message]: Refusal, requestId: string) => {
  const body = JSON.stringify(errorBody(status, error, message))
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    "cache-control: no-store",
    "x-content-type-options: nosniff",
    `x-request-id: ${requestId}`,
    "connection: close",
    "",
    body
  ].join("\r\n")
}

/**
 * Answers what Node's HTTP parser refuses before any route sees it (headers over the size limit, a malformed request,
 * the headers or body too slow) with the contract's JSON error body and a new request id, where Node would send an
 * empty body; then closes the connection. A socket already gone, or in the middle of another response, is only closed.
 */
export const answerClientErrorsAsJson = (server: Server): Server =>
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own rule: never write into a response whose headers already left.
    const inFlight = (socket as { readonly _httpMessage?: { readonly headersSent: boolean } })._httpMessage
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy()
      return
    }
    socket.end(rawResponse(REFUSALS[error.code ?? ""] ?? MALFORMED, crypto.randomUUID()), () => socket.destroy())
  })

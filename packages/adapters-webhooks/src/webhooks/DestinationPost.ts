import { type LookupAddress, lookup } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { checkWebhookUrl, isPublicAddress, WebhookDestinations, WebhookSendFailed } from "@svc/domain"
import { Array as Arr, Context, Effect } from "effect"

/** Resolves a host name to every address it has. */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

/** The resolver outbound POSTs use: the system's (`dns.lookup` with `all`), unless a test provides another. */
export const WebhookHostResolver = Context.Reference<HostResolver>("@svc/adapters-webhooks/WebhookHostResolver", {
  defaultValue: () => (hostname) =>
    new Promise((resolve, reject) =>
      lookup(hostname, { all: true, order: "verbatim" }, (error, addresses) =>
        error === null ? resolve(addresses) : reject(error)
      )
    )
})

/** A `lookup` for the connection that answers the already checked addresses, so the host is never resolved twice. */
const pinnedLookup =
  (checked: readonly [LookupAddress, ...Array<LookupAddress>]): LookupFunction =>
  (_hostname, options, callback) =>
    options.all === true ? callback(null, [...checked]) : callback(null, checked[0].address, checked[0].family)

const refused = new WebhookSendFailed({ reason: "refused", message: "destination address is not allowed" })

const abortable = <A>(promise: Promise<A>, signal: AbortSignal): Promise<A> =>
  new Promise((resolve, reject) => {
    signal.throwIfAborted()
    const onAbort = () => reject(signal.reason)
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort))
  })

/** POSTs to the checked addresses with the URL's host for SNI, certificate checks and `Host`; never follows redirects. */
const post = (
  url: URL,
  checked: readonly [LookupAddress, ...Array<LookupAddress>],
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal
) =>
  new Promise<http.IncomingMessage>((resolve, reject) => {
    const transport = url.protocol === "https:" ? https : http
    const request = transport.request(url, {
      method: "POST",
      headers,
      signal,
      agent: false,
      lookup: pinnedLookup(checked)
    })
    request.once("response", (response) => {
      response.destroy()
      resolve(response)
    })
    request.once("error", reject)
    request.end(body)
  })

/** A JSON POST to a destination outside the service. */
export interface DestinationRequest {
  readonly url: string
  /** Headers besides `content-type` (JSON) and `content-length`. */
  readonly headers: Record<string, string>
  readonly body: string
  /** How long resolving the host and the answer may take together. */
  readonly timeoutMs: number
}

/** What the destination answered: its status and headers (the body is never read). */
export interface DestinationAnswer {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
}

/**
 * The one way the service POSTs to a URL it does not control (webhook deliveries, chat response URLs), under the
 * `WebhookDestinations` policy: the URL must pass `checkWebhookUrl`; its host is resolved once and the POST refused
 * (`refused`, nothing sent) when any of its addresses is not public, unless private destinations are allowed
 * (development); the connection then goes to the checked addresses only (the first, or the next on a connection
 * failure). Redirects are answers, not followed; the response body is never read.
 */
export const destinationPost = Effect.gen(function* () {
  const destinations = yield* WebhookDestinations
  const resolveHost = yield* WebhookHostResolver

  const failure = (timeoutMs: number) => (cause: unknown) => {
    const name = cause instanceof Error ? cause.name : ""
    return name === "TimeoutError" || name === "AbortError"
      ? new WebhookSendFailed({ reason: "timeout", message: `no answer within ${timeoutMs} ms` })
      : new WebhookSendFailed({ reason: "network", message: "the receiver could not be reached" })
  }

  const addressesOf = (hostname: string, signal: AbortSignal): Promise<ReadonlyArray<LookupAddress>> => {
    const literal = hostname.replace(/^\[(.*)\]$/u, "$1")
    const family = isIP(literal)
    return family === 0 ? abortable(resolveHost(hostname), signal) : Promise.resolve([{ address: literal, family }])
  }

  return (request: DestinationRequest): Effect.Effect<DestinationAnswer, WebhookSendFailed> =>
    Effect.gen(function* () {
      if (checkWebhookUrl(request.url, destinations) !== undefined) return yield* refused
      const url = new URL(request.url)
      const deadline = AbortSignal.timeout(request.timeoutMs)
      const addresses = yield* Effect.tryPromise({
        try: (interrupted) => addressesOf(url.hostname, AbortSignal.any([interrupted, deadline])),
        catch: failure(request.timeoutMs)
      })
      const allowed = destinations.allowPrivateDestinations || addresses.every((a) => isPublicAddress(a.address))
      if (!Arr.isReadonlyArrayNonEmpty(addresses) || !allowed) return yield* refused
      const headers = {
        ...request.headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(request.body))
      }
      const response = yield* Effect.tryPromise({
        try: (interrupted) => post(url, addresses, headers, request.body, AbortSignal.any([interrupted, deadline])),
        catch: failure(request.timeoutMs)
      })
      return { status: response.statusCode ?? 0, headers: response.headers }
    })
})

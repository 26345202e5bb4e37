import { createHmac } from "node:crypto"
import { type LookupAddress, lookup } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import {
  checkWebhookUrl,
  isPublicAddress,
  type OutboundWebhook,
  type ReceiverResponse,
  WebhookDestinations,
  WebhookSender,
  WebhookSendFailed
} from "@svc/domain"
import { Array as Arr, Clock, Context, Effect, Layer } from "effect"

/** The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated. */
export const standardWebhooksSignature = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  body: string
): string =>
  secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")
      return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
    })
    .join(" ")

/** Reads `Retry-After` as seconds (a number of seconds or an HTTP date). */
export const retryAfterSeconds = (value: string | null, nowMs: number): number | null => {
  if (value === null) return null
  if (/^\d+$/u.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

/** Resolves a host name to every address it has. */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

/** The resolver deliveries use: the system's (`dns.lookup` with `all`), unless a test provides another. */
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

/**
 * WebhookSender over node:http(s): signs with Standard Webhooks and POSTs JSON to a destination the
 * `WebhookDestinations` policy allows. The host is resolved once; a delivery is refused when any of its addresses is
 * not public, and otherwise connects to the checked addresses only (the first, or the next on a connection failure).
 * Redirects are answers, not followed; the response body is never read. Resolving and answering share the timeout.
 */
export const StandardWebhooksSender = Layer.effect(
  WebhookSender,
  Effect.gen(function* () {
    const destinations = yield* WebhookDestinations
    const resolveHost = yield* WebhookHostResolver

    const failure = (webhook: OutboundWebhook) => (cause: unknown) => {
      const name = cause instanceof Error ? cause.name : ""
      return name === "TimeoutError" || name === "AbortError"
        ? new WebhookSendFailed({ reason: "timeout", message: `no answer within ${webhook.timeoutMs} ms` })
        : new WebhookSendFailed({ reason: "network", message: "the receiver could not be reached" })
    }

    const addressesOf = (hostname: string, signal: AbortSignal): Promise<ReadonlyArray<LookupAddress>> => {
      const literal = hostname.replace(/^\[(.*)\]$/u, "$1")
      const family = isIP(literal)
      return family === 0 ? abortable(resolveHost(hostname), signal) : Promise.resolve([{ address: literal, family }])
    }

    const send = (webhook: OutboundWebhook): Effect.Effect<ReceiverResponse, WebhookSendFailed> =>
      Effect.gen(function* () {
        if (checkWebhookUrl(webhook.url, destinations) !== undefined) return yield* refused
        const url = new URL(webhook.url)
        const deadline = AbortSignal.timeout(webhook.timeoutMs)
        const addresses = yield* Effect.tryPromise({
          try: (interrupted) => addressesOf(url.hostname, AbortSignal.any([interrupted, deadline])),
          catch: failure(webhook)
        })
        const allowed = destinations.allowPrivateDestinations || addresses.every((a) => isPublicAddress(a.address))
        if (!Arr.isReadonlyArrayNonEmpty(addresses) || !allowed) return yield* refused
        const headers = {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(webhook.body)),
          "user-agent": "svc-webhooks/1",
          "webhook-id": webhook.webhookId,
          "webhook-timestamp": String(webhook.timestampSeconds),
          "webhook-signature": standardWebhooksSignature(
            webhook.secrets,
            webhook.webhookId,
            webhook.timestampSeconds,
            webhook.body
          )
        }
        const response = yield* Effect.tryPromise({
          try: (interrupted) => post(url, addresses, headers, webhook.body, AbortSignal.any([interrupted, deadline])),
          catch: failure(webhook)
        })
        const retryAfter = response.headers["retry-after"]
        return {
          status: response.statusCode ?? 0,
          retryAfterSeconds: retryAfterSeconds(retryAfter ?? null, yield* Clock.currentTimeMillis)
        }
      }).pipe(Effect.withSpan("WebhookSender.send"))

    return WebhookSender.of({ send })
  })
)

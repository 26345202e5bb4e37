import { WebhookEventBody } from "@svc/adapters-http/api"
import { Clock, Data, Effect, Schema } from "effect"

/**
 * The body of a delivery to a webhook endpoint, `{id, object: "event", type, mode, createdAt, data}`: narrowing on
 * `type` gives `data` its resource's shape (`spend_request.*` a spend request, `transfer.*` a transfer,
 * `checkout_intent.*` a checkout intent, `webhook_endpoint.disabled` an endpoint, `bank_connection.disconnected` a
 * bank connection, `invoice.paid` an invoice's payment, `chat_integration.disconnected` a chat integration).
 */
export type WebhookEvent = typeof WebhookEventBody.Type

/** The event of one type, e.g. `WebhookEventOf<"spend_request.approved">`. */
export type WebhookEventOf<T extends WebhookEvent["type"]> = Extract<WebhookEvent, { readonly type: T }>

/**
 * Why a delivery was refused: `malformed` (a header missing or ill-formed, or a body that is not an event),
 * `bad_signature` (no signature matches the secret) or `stale_timestamp` (signed too long ago or in the future).
 */
export class WebhookVerificationError extends Data.TaggedError("WebhookVerificationError")<{
  readonly reason: "malformed" | "bad_signature" | "stale_timestamp"
  readonly message: string
}> {}

/** The request headers as a `Headers` object or a plain record (e.g. Node's `IncomingHttpHeaders`). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** How far the signing time may be from now, in seconds (default 300, as Standard Webhooks advises). */
export interface VerifyOptions {
  readonly toleranceSeconds?: number
}

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return typeof found === "string" ? found : undefined
}

const refuse = (reason: WebhookVerificationError["reason"], message: string) =>
  new WebhookVerificationError({ reason, message })

const fromBase64 = (text: string): Uint8Array | undefined => {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** The HMAC key of a `whsec_` secret: the base64 after the prefix (a bare base64 key is accepted too). */
const keyOf = (secret: string): Uint8Array => {
  const key = fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret)
  if (key === undefined || key.length === 0) throw new TypeError("the webhook secret is not a whsec_ base64 key")
  return key
}

/** Equal bytes, in time that depends only on the lengths. */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

const hmacSha256 = (key: Uint8Array, message: Uint8Array) =>
  Effect.promise(async () => {
    const cryptoKey = await globalThis.crypto.subtle.importKey(
      "raw",
      key as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"]
    )
    return new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", cryptoKey, message as Uint8Array<ArrayBuffer>))
  })

const decodeEvent = Schema.decodeUnknownEffect(Schema.fromJsonString(WebhookEventBody))

/**
 * Verifies a delivery as the Standard Webhooks format of the service signs it and decodes its body: the
 * `webhook-signature` header must hold a `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under
 * one of the secrets (pass the previous and the new secret while rotating; the service signs with both for a day), and
 * `webhook-timestamp` must be within the tolerance of the clock. `rawBody` is the body exactly as received.
 */
export const verifyWebhookEffect = (
  secret: string | ReadonlyArray<string>,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyOptions = {}
): Effect.Effect<WebhookEvent, WebhookVerificationError> =>
  Effect.gen(function* () {
    const id = header(headers, "webhook-id")
    const timestamp = header(headers, "webhook-timestamp")
    const signatures = header(headers, "webhook-signature")
    if (id === undefined || timestamp === undefined || signatures === undefined) {
      return yield* refuse("malformed", "the webhook-id, webhook-timestamp and webhook-signature headers are required")
    }
    if (!/^\d{1,15}$/u.test(timestamp)) return yield* refuse("malformed", "webhook-timestamp is not Unix seconds")
    const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
      return yield* refuse("stale_timestamp", "webhook-timestamp is too far from now")
    }
    const keys = (typeof secret === "string" ? [secret] : secret).map(keyOf)
    const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody
    const prefix = new TextEncoder().encode(`${id}.${timestamp}.`)
    const signed = new Uint8Array(prefix.length + body.length)
    signed.set(prefix)
    signed.set(body, prefix.length)
    const given = signatures
      .split(" ")
      .filter((s) => s.startsWith("v1,"))
      .flatMap((s) => fromBase64(s.slice(3)) ?? [])
    const expected = yield* Effect.forEach(keys, (key) => hmacSha256(key, signed))
    if (!expected.some((mac) => given.some((signature) => sameBytes(mac, signature)))) {
      return yield* refuse("bad_signature", "no webhook-signature matches the secret")
    }
    return yield* decodeEvent(new TextDecoder().decode(body)).pipe(
      Effect.mapError((e) => refuse("malformed", `the body is not an event: ${e.message}`))
    )
  })

/**
 * Verifies and decodes a delivery (see `verifyWebhookEffect`); rejects with a `WebhookVerificationError` whose
 * `reason` says why. Answer 2xx only once this resolves.
 *
 * ```ts
 * const event = await verifyWebhook(process.env.WEBHOOK_SECRET, request.headers, await request.text())
 * if (event.type === "spend_request.approved") console.log(event.data.amount)
 * ```
 */
export const verifyWebhook = (
  secret: string | ReadonlyArray<string>,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyOptions = {}
): Promise<WebhookEvent> => Effect.runPromise(verifyWebhookEffect(secret, headers, rawBody, options))

import { isIpLiteralHost, isPublicAddress } from "./PublicAddress.ts"
import type { WebhookEndpoint } from "./WebhookEndpoint.ts"

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/u

/** Where endpoints may point: development mode also allows http and loopback, private or other non-public addresses. */
export interface WebhookDestinationPolicy {
  readonly allowPrivateDestinations: boolean
}

const isLocalName = (hostname: string) => {
  const name = hostname.replace(/\.$/u, "")
  return name === "localhost" || name.endsWith(".localhost")
}

/**
 * An endpoint URL must be absolute https with no credentials, at most 2048 characters, and its host must not be
 * `localhost` or an IP literal that is not public (checked after WHATWG URL normalisation, so `127.1`, `0x7f.0.0.1`
 * and `2130706433` are `127.0.0.1`). With `allowPrivateDestinations` (development only) http and any host are allowed.
 * Host names are checked again, resolved, when a delivery is sent.
 */
export const checkWebhookUrl = (raw: string, policy: WebhookDestinationPolicy): string | undefined => {
  if (raw.length > 2048) return "must be at most 2048 characters"
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "must be an absolute URL"
  }
  if (url.username !== "" || url.password !== "") return "must not contain credentials"
  if (policy.allowPrivateDestinations) {
    return url.protocol === "https:" || url.protocol === "http:" ? undefined : "must use https or http"
  }
  if (url.protocol !== "https:") return "must use https"
  const nonPublic = isLocalName(url.hostname) || (isIpLiteralHost(url.hostname) && !isPublicAddress(url.hostname))
  return nonPublic ? "must not point at a loopback, private or other non-public address" : undefined
}

/** Event types are "*" or dotted lower-case names (e.g. `spend_request.approved`, `transfer.accepted`). */
export const checkEventTypes = (types: ReadonlyArray<string>): string | undefined => {
  if (types.length === 0 || types.length > 50) return "must list 1 to 50 event types"
  const bad = types.find((t) => t !== "*" && !EVENT_TYPE.test(t))
  return bad === undefined ? undefined : `unknown event type ${JSON.stringify(bad.slice(0, 100))}`
}

/** Whether an endpoint subscribes to an event type. */
export const subscribesTo = (endpoint: WebhookEndpoint, type: string): boolean =>
  endpoint.enabled && endpoint.eventTypes.some((t) => t === "*" || t === type)

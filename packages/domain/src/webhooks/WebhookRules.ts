import type { WebhookEndpoint } from "./WebhookEndpoint.ts"

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/u
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])
/** The event types endpoints can subscribe to ("*" for all). */
export const WebhookEventTypes = [
  "spend_request.created",
  "spend_request.approval_required",
  "spend_request.approved",
  "spend_request.denied",
  "spend_request.expired",
  "spend_request.canceled"
] as const

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/u

/** Whether a URL host is an IP literal in a private, link-local, shared or unspecified range (never a delivery target). */
export const isInternalAddress = (hostname: string): boolean => {
  const v4 = IPV4.exec(hostname)
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return (
      a === 0 ||
      a === 10 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    )
  }
  if (!hostname.startsWith("[")) return false
  const v6 = hostname.slice(1, -1).toLowerCase()
  return v6 === "::" || /^f[cd]/u.test(v6) || /^fe[89ab]/u.test(v6) || v6.startsWith("::ffff:")
}

/**
 * An endpoint URL must be https, or http on localhost; no credentials, no private or link-local IP literal (such as
 * a cloud metadata address), at most 2048 characters.
 */
export const checkWebhookUrl = (raw: string): string | undefined => {
  if (raw.length > 2048) return "must be at most 2048 characters"
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "must be an absolute URL"
  }
  if (url.username !== "" || url.password !== "") return "must not contain credentials"
  if (isInternalAddress(url.hostname)) return "must not point at a private or link-local address"
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname)) return undefined
  return "must use https (http is allowed only on localhost)"
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

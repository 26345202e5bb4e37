import { Effect } from "effect"
import {
  anyEqual,
  HEX,
  headerOf,
  hmac,
  parseUnixSeconds,
  reject,
  requiringSecrets,
  withinWindow
} from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** One `t=<unix>,v1=<hex>[,v1=<hex>...]` group of a timestamped signature header. */
export interface TimestampedSignature {
  readonly timestamp: string
  readonly signatures: ReadonlyArray<string>
}

/** Parses `t=..,v1=..` groups (space-separated when several); `undefined` when any group is malformed. */
export const parseTimestampedHeader = (header: string): ReadonlyArray<TimestampedSignature> | undefined => {
  const groups: Array<TimestampedSignature> = []
  for (const group of header.trim().split(/\s+/)) {
    let timestamp: string | undefined
    const signatures: Array<string> = []
    for (const item of group.split(",")) {
      const eq = item.indexOf("=")
      if (eq <= 0) return undefined
      const key = item.slice(0, eq)
      const value = item.slice(eq + 1)
      if (key === "t") {
        if (timestamp !== undefined || parseUnixSeconds(value) === undefined) return undefined
        timestamp = value
      } else if (key === "v1") {
        if (!HEX.test(value)) return undefined
        signatures.push(value.toLowerCase())
      }
    }
    if (timestamp === undefined || signatures.length === 0) return undefined
    groups.push({ timestamp, signatures })
  }
  return groups.length === 0 ? undefined : groups
}

/** Verifies `header: t=<unix>,v1=<hex>` = HMAC-SHA256 of `t.body`, with `t` within `toleranceSeconds` of now. */
export const timestampedHmac = (header: string, toleranceSeconds = 300): Verifier =>
  requiringSecrets((request, secrets, nowSeconds) => {
    const value = headerOf(request, header)
    if (value === undefined) return reject("missing_signature")
    const groups = parseTimestampedHeader(value)
    if (groups === undefined) return reject("malformed_header")
    const fresh = groups.filter((group) => withinWindow(Number(group.timestamp), nowSeconds, toleranceSeconds))
    if (fresh.length === 0) return reject("stale_timestamp")
    let matched = false
    for (const group of fresh) {
      const expected = secrets.map((secret) =>
        hmac("sha256", secret, `${group.timestamp}.`, request.body).toString("hex")
      )
      if (anyEqual(expected, group.signatures)) matched = true
    }
    return matched ? Effect.void : reject("invalid_signature")
  })

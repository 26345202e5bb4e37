import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"
import type { Verifier, WebhookRequest } from "../Verifier.ts"
import { WebhookSignatureError, type WebhookSignatureReason } from "../WebhookSignatureError.ts"

export type HmacAlgorithm = "sha1" | "sha256" | "sha512"

export const hmac = (
  algorithm: HmacAlgorithm,
  key: string | Uint8Array,
  ...parts: ReadonlyArray<string | Uint8Array>
): Buffer => {
  const mac = createHmac(algorithm, key)
  for (const part of parts) mac.update(part)
  return mac.digest()
}

export const sha256 = (data: string | Uint8Array): Buffer => createHash("sha256").update(data).digest()

export const safeEqual = (a: string | Uint8Array, b: string | Uint8Array): boolean =>
  timingSafeEqual(sha256(a), sha256(b))

export const anyEqual = (expected: ReadonlyArray<string>, provided: ReadonlyArray<string>): boolean => {
  let matched = false
  for (const e of expected) {
    for (const p of provided) {
      if (safeEqual(e, p)) matched = true
    }
  }
  return matched
}

export const reject = (reason: WebhookSignatureReason) => Effect.fail(new WebhookSignatureError({ reason }))

export const headerOf = (request: WebhookRequest, name: string): string | undefined => {
  const value = request.headers[name]?.trim()
  return value === undefined || value.length === 0 ? undefined : value
}

export const parseUnixSeconds = (value: string): number | undefined =>
  /^\d{1,12}$/.test(value) ? Number(value) : undefined

export const withinWindow = (timestamp: number, nowSeconds: number, toleranceSeconds: number): boolean =>
  Math.abs(nowSeconds - timestamp) <= toleranceSeconds

export const HEX = /^[0-9a-f]+$/i
export const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export const requiringSecrets =
  (verify: Verifier): Verifier =>
  (request, secrets, nowSeconds) =>
    secrets.length === 0 ? reject("secret_not_configured") : verify(request, secrets, nowSeconds)

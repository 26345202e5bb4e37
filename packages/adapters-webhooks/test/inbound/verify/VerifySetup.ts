import { createHmac } from "node:crypto"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { WebhookRequest } from "../../../src/inbound/verify/Verifier.ts"
import type {
  WebhookSignatureError,
  WebhookSignatureReason
} from "../../../src/inbound/verify/WebhookSignatureError.ts"

export const NOW = 1_767_225_600

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text)

export const makeRequest = (
  body: string,
  headers: Readonly<Record<string, string | undefined>>,
  remoteAddress?: string
): WebhookRequest =>
  remoteAddress === undefined ? { body: encode(body), headers } : { body: encode(body), headers, remoteAddress }

export const hmacOf = (
  algorithm: "sha1" | "sha256" | "sha512",
  key: string | Uint8Array,
  data: string,
  encoding: "hex" | "base64" = "hex"
): string => createHmac(algorithm, key).update(data).digest(encoding)

export const expectReason = (effect: Effect.Effect<void, WebhookSignatureError>, reason: WebhookSignatureReason) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(effect)
    assert.strictEqual(error._tag, "WebhookSignatureError")
    assert.strictEqual(error.reason, reason)
  })

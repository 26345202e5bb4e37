import { Result } from "effect"
import { WebhookPayloadError } from "./WebhookSignatureError.ts"

/** The common JSON envelope of provider events: the provider's event id, its type, and the whole object. */
export interface WebhookEnvelope {
  readonly id: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
}

const invalid = (message: string) => Result.fail(new WebhookPayloadError({ reason: "invalid_payload", message }))

/** Parses the raw body as a JSON object carrying non-empty string `id` and `type`. */
export const parseEnvelope = (body: Uint8Array): Result.Result<WebhookEnvelope, WebhookPayloadError> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body))
  } catch {
    return invalid("body is not JSON")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return invalid("body is not a JSON object")
  const payload = parsed as Record<string, unknown>
  if (typeof payload.id !== "string" || payload.id.length === 0) return invalid("missing string field id")
  if (typeof payload.type !== "string" || payload.type.length === 0) return invalid("missing string field type")
  return Result.succeed({ id: payload.id, type: payload.type, payload })
}

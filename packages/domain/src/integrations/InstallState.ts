import { Effect, Option, Schema } from "effect"
import {
  constantTimeEqual,
  hmacBase64Url,
  randomBytes,
  TeamId,
  textFromBase64Url,
  toBase64Url,
  UserId,
  utf8
} from "../shared/index.ts"

/** How long an install URL's `state` is accepted, in seconds. */
export const INSTALL_STATE_TTL_SECONDS = 600

/** Who started an install, and until when its `state` is good. */
export const InstallClaims = Schema.Struct({
  teamId: TeamId,
  userId: UserId,
  expiresAtMs: Schema.Int,
  nonce: Schema.String
})
export type InstallClaims = typeof InstallClaims.Type

/** The callback's `state` is not one this service issued for this app (`forged`, `malformed`) or is too old. */
export class ChatInstallStateInvalid extends Schema.TaggedError<ChatInstallStateInvalid>()("ChatInstallStateInvalid", {
  reason: Schema.Literals(["malformed", "forged", "expired"])
}) {}

const decodeClaims = Schema.decodeUnknownOption(Schema.fromJsonString(InstallClaims))

const mac = (key: string, purpose: string, payload: string) => hmacBase64Url(key, `${purpose}:${payload}`)

/**
 * The `state` of an install URL: `<claims>.<mac>`, the claims JSON in base64url and an HMAC-SHA256 over them under
 * `key`, bound to `purpose` (so one app's state is never another's), with a random nonce.
 */
export const signInstallState = (
  key: string,
  purpose: string,
  claims: { readonly teamId: TeamId; readonly userId: UserId; readonly expiresAtMs: number }
) =>
  Effect.gen(function* () {
    const nonce = toBase64Url(yield* randomBytes(16))
    const payload = toBase64Url(utf8(JSON.stringify({ ...claims, nonce })))
    return `${payload}.${yield* mac(key, purpose, payload)}`
  })

/** The claims of a `state` this service signed for `purpose`, if it has not expired at `nowMs`. */
export const verifyInstallState = (key: string, purpose: string, state: string, nowMs: number) =>
  Effect.gen(function* () {
    const [payload, tag, ...rest] = state.split(".")
    if (payload === undefined || tag === undefined || rest.length > 0) {
      return yield* new ChatInstallStateInvalid({ reason: "malformed" })
    }
    if (!constantTimeEqual(yield* mac(key, purpose, payload), tag)) {
      return yield* new ChatInstallStateInvalid({ reason: "forged" })
    }
    const claims = decodeClaims(textFromBase64Url(payload) ?? "")
    if (Option.isNone(claims)) return yield* new ChatInstallStateInvalid({ reason: "malformed" })
    if (claims.value.expiresAtMs <= nowMs) return yield* new ChatInstallStateInvalid({ reason: "expired" })
    return claims.value
  })

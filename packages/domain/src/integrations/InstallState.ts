import { Effect, Option, Schema } from "effect"
import {
  constantTimeEqual,
  hashSecret,
  hmacBase64Url,
  isoOfMillis,
  type PersistenceUnavailable,
  randomBytes,
  TeamId,
  textFromBase64Url,
  toBase64Url,
  UserId,
  utf8
} from "../shared/index.ts"
import type { InstallNoncesRepo } from "./InstallNoncesRepo.ts"

/** How long an install URL's `state` is accepted, in seconds. */
export const INSTALL_STATE_TTL_SECONDS = 600

/**
 * What makes a new install's state one-time and bound to the browser that asked for it (ADR 0042): a random nonce,
 * consumed when the state is used, and a random secret the browser keeps in a cookie, of which the state carries only
 * the hash.
 */
export interface InstallStart {
  readonly nonce: string
  readonly browserSecret: string
  readonly browserHash: string
}

/** A new install's nonce and browser secret, from the secure random source. */
export const startInstall: Effect.Effect<InstallStart> = Effect.gen(function* () {
  const nonce = toBase64Url(yield* randomBytes(16))
  const browserSecret = toBase64Url(yield* randomBytes(32))
  return { nonce, browserSecret, browserHash: yield* hashSecret(browserSecret) }
})

/** An install URL and the secret the browser that follows it must hold (set as a cookie by the HTTP adapter). */
export interface StartedInstall {
  readonly url: string
  readonly browserSecret: string
}

/** A genuine, unexpired install state that is not accepted: presented by another browser, or used already. */
export class InstallStateRefused extends Schema.TaggedError<InstallStateRefused>()("InstallStateRefused", {
  reason: Schema.Literals(["other_browser", "used"])
}) {}

/**
 * Accepts a verified state once, from the browser that holds its secret: the presented secret must hash to the
 * state's `browserHash` (else `other_browser`, and the state stays usable), then its nonce is consumed (else `used`).
 */
export const redeemInstallState = (
  nonces: InstallNoncesRepo["Service"],
  purpose: string,
  state: { readonly nonce: string; readonly browserHash: string },
  browserSecret: string | undefined,
  nowMs: number
): Effect.Effect<void, InstallStateRefused | PersistenceUnavailable> =>
  Effect.gen(function* () {
    const presented = browserSecret === undefined ? "" : yield* hashSecret(browserSecret)
    if (!constantTimeEqual(presented, state.browserHash)) {
      return yield* new InstallStateRefused({ reason: "other_browser" })
    }
    const consumed = yield* nonces.consume({
      purpose,
      nonce: state.nonce,
      keepUntil: isoOfMillis(nowMs + INSTALL_STATE_TTL_SECONDS * 1000),
      usedAt: isoOfMillis(nowMs)
    })
    if (!consumed) return yield* new InstallStateRefused({ reason: "used" })
  })

/** Who started an install, until when its `state` is good, its nonce and the hash of its browser's secret. */
export const InstallClaims = Schema.Struct({
  teamId: TeamId,
  userId: UserId,
  expiresAtMs: Schema.Int,
  nonce: Schema.String,
  browserHash: Schema.String
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
 * `key`, bound to `purpose` (so one app's state is never another's).
 */
export const signInstallState = (key: string, purpose: string, claims: InstallClaims) =>
  Effect.gen(function* () {
    const payload = toBase64Url(utf8(JSON.stringify(claims)))
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

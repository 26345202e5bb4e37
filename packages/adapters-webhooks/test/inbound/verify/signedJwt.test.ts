import { createHash } from "node:crypto"
import { describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { signedJwt } from "../../../src/inbound/verify/SignedJwt.ts"
import { expectReason, makeRequest, NOW } from "./VerifySetup.ts"

const header = "bank-aggregator-a-verification"
const verify = signedJwt(header)
const body = JSON.stringify({ webhook_type: "TRANSACTIONS", webhook_code: "SYNC_UPDATES_AVAILABLE", item_id: "it_1" })
const bodySha256 = (payload: string) => createHash("sha256").update(payload).digest("hex")

const first = await generateKeyPair("ES256", { extractable: true })
const second = await generateKeyPair("ES256", { extractable: true })
const stranger = await generateKeyPair("ES256", { extractable: true })
const publicJwk = async (key: CryptoKey, kid: string) => ({ ...(await exportJWK(key)), kid, alg: "ES256", use: "sig" })
const jwks = JSON.stringify({ keys: [await publicJwk(first.publicKey, "k1")] })
const rotatedJwks = JSON.stringify({
  keys: [await publicJwk(first.publicKey, "k1"), await publicJwk(second.publicKey, "k2")]
})

interface TokenOptions {
  readonly key?: CryptoKey
  readonly kid?: string | null
  readonly iat?: number
  readonly payload?: string
}

const token = ({ key = first.privateKey, kid = "k1", iat = NOW, payload = body }: TokenOptions = {}) =>
  Effect.promise(() =>
    new SignJWT({ request_body_sha256: bodySha256(payload) })
      .setProtectedHeader(kid === null ? { alg: "ES256" } : { alg: "ES256", kid })
      .setIssuedAt(iat)
      .sign(key)
  )

const check = (jwt: string, secrets: ReadonlyArray<string> = [jwks], payload = body) =>
  verify(makeRequest(payload, { [header]: jwt }), secrets, NOW)

describe("ES256 signed JWT (bank-aggregator-a)", () => {
  it.effect("accepts a valid token", () => Effect.flatMap(token(), (jwt) => check(jwt)))

  it.effect("accepts a token issued at the edge of the window", () =>
    Effect.flatMap(token({ iat: NOW - 300 }), (jwt) => check(jwt))
  )

  it.effect("refuses a tampered body", () =>
    Effect.flatMap(token(), (jwt) => expectReason(check(jwt, [jwks], `${body} `), "invalid_signature"))
  )

  it.effect("refuses a token signed by another key under the same kid", () =>
    Effect.flatMap(token({ key: stranger.privateKey }), (jwt) => expectReason(check(jwt), "invalid_signature"))
  )

  it.effect("refuses an unknown kid", () =>
    Effect.flatMap(token({ kid: "k9" }), (jwt) => expectReason(check(jwt), "invalid_signature"))
  )

  it.effect("refuses a stale iat", () =>
    Effect.flatMap(token({ iat: NOW - 301 }), (jwt) => expectReason(check(jwt), "stale_timestamp"))
  )

  it.effect("refuses an iat too far in the future", () =>
    Effect.flatMap(token({ iat: NOW + 301 }), (jwt) => expectReason(check(jwt), "stale_timestamp"))
  )

  it.effect("refuses an expired token", () =>
    Effect.gen(function* () {
      const jwt = yield* Effect.promise(() =>
        new SignJWT({ request_body_sha256: bodySha256(body) })
          .setProtectedHeader({ alg: "ES256", kid: "k1" })
          .setIssuedAt(NOW - 10)
          .setExpirationTime(NOW - 5)
          .sign(first.privateKey)
      )
      yield* expectReason(check(jwt), "stale_timestamp")
    })
  )

  it.effect("refuses an HS256 token", () =>
    Effect.gen(function* () {
      const jwt = yield* Effect.promise(() =>
        new SignJWT({ request_body_sha256: bodySha256(body) })
          .setProtectedHeader({ alg: "HS256", kid: "k1" })
          .setIssuedAt(NOW)
          .sign(new TextEncoder().encode("a-shared-secret-that-is-long-enough!"))
      )
      yield* expectReason(check(jwt), "invalid_signature")
    })
  )

  it.effect("refuses a token without the body hash claim", () =>
    Effect.gen(function* () {
      const jwt = yield* Effect.promise(() =>
        new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuedAt(NOW).sign(first.privateKey)
      )
      yield* expectReason(check(jwt), "malformed_header")
    })
  )

  it.effect("refuses a token without kid", () =>
    Effect.flatMap(token({ kid: null }), (jwt) => expectReason(check(jwt), "malformed_header"))
  )

  it.effect("refuses a header that is not a JWT", () => expectReason(check("not-a-jwt"), "malformed_header"))

  it.effect("refuses a missing header", () =>
    expectReason(verify(makeRequest(body, {}), [jwks], NOW), "missing_signature")
  )

  it.effect("accepts the second key of a rotated JWKS", () =>
    Effect.flatMap(token({ key: second.privateKey, kid: "k2" }), (jwt) => check(jwt, [rotatedJwks]))
  )

  it.effect("reports an unset JWKS", () =>
    Effect.flatMap(token(), (jwt) => expectReason(check(jwt, []), "secret_not_configured"))
  )

  it.effect("reports a JWKS that is not JSON", () =>
    Effect.flatMap(token(), (jwt) => expectReason(check(jwt, ["{nope"]), "secret_not_configured"))
  )
})

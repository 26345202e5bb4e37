import { Effect } from "effect"
import { constantTimeEqual, sha256, toBase64Url, utf8 } from "../shared/index.ts"

/** A PKCE code verifier (RFC 7636 4.1): 43..128 unreserved characters. */
export const isCodeVerifier = (value: string): boolean => /^[A-Za-z0-9\-._~]{43,128}$/u.test(value)

/** An S256 code challenge: the unpadded base64url of a SHA-256 digest (43 characters). */
export const isS256Challenge = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/u.test(value)

/** The S256 challenge of a verifier: BASE64URL(SHA256(ASCII(verifier))). */
export const s256Challenge = (verifier: string): Effect.Effect<string> =>
  Effect.map(sha256(utf8(verifier)), toBase64Url)

/** Whether a verifier matches a stored S256 challenge, compared in constant time. */
export const verifyS256 = (verifier: string, challenge: string): Effect.Effect<boolean> =>
  isCodeVerifier(verifier)
    ? Effect.map(s256Challenge(verifier), (computed) => constantTimeEqual(computed, challenge))
    : Effect.succeed(false)

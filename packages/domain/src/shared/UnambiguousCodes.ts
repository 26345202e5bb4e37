import { Effect } from "effect"
import { randomBytes } from "./Random.ts"
/** Digits and lower-case letters a reader cannot confuse: no 0/o, 1/l/i. */
export const UNAMBIGUOUS_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"

/** The largest multiple of the alphabet's size under 256: bytes at or above it are dropped, so no character is favoured. */
const UNBIASED_LIMIT = 256 - (256 % UNAMBIGUOUS_ALPHABET.length)

/** Characters of the unambiguous alphabet drawn from random bytes, without bias; fewer than asked when bytes run out. */
export const unambiguousCharsOf = (bytes: Uint8Array, length: number): string => {
  let out = ""
  for (const byte of bytes) {
    if (out.length === length) break
    if (byte < UNBIASED_LIMIT) out += UNAMBIGUOUS_ALPHABET[byte % UNAMBIGUOUS_ALPHABET.length]
  }
  return out
}

/** `length` characters of the unambiguous alphabet, drawn from the `SecureRandom` in context without bias. */
export const randomUnambiguous = (length: number): Effect.Effect<string> =>
  Effect.gen(function* () {
    let out = ""
    while (out.length < length) {
      out += unambiguousCharsOf(yield* randomBytes(length * 2), length - out.length)
    }
    return out
  })

import { assert, describe, it } from "@effect/vitest"
import {
  normalizePaymentCode,
  parseReceiveAddress,
  receiveAddressOf,
  slugOf,
  UNAMBIGUOUS_ALPHABET,
  unambiguousCharsOf
} from "@svc/domain"
import { Option } from "effect"

describe("receive address and payment code rules", () => {
  it("the alphabet has no 0, o, 1, l or i, and every byte below 248 maps to one character, the rest are dropped", () => {
    assert.strictEqual(UNAMBIGUOUS_ALPHABET.length, 31)
    for (const confusable of ["0", "o", "1", "l", "i"]) assert.notInclude(UNAMBIGUOUS_ALPHABET, confusable)
    assert.strictEqual(unambiguousCharsOf(new Uint8Array([0, 30, 31, 247]), 4), "2z2z")
    assert.strictEqual(unambiguousCharsOf(new Uint8Array([248, 255, 1]), 4), "3", "biased bytes are skipped")
  })

  it("slugs keep ASCII letters and digits, fold accents, join words with single hyphens, and fall back to team", () => {
    assert.strictEqual(slugOf("Acme"), "acme")
    assert.strictEqual(slugOf("  Ça va -- Été 2026! "), "ca-va-ete-2026")
    assert.strictEqual(slugOf("東京"), "team")
    assert.strictEqual(slugOf("abcdefghij klmnopqrstuvwxyz"), "abcdefghij-klmnopqrs")
    assert.strictEqual(slugOf("abcdefghijklmnopqrs tuv"), "abcdefghijklmnopqrs", "no hyphen left at the cut")
  })

  it("an address parses back to its handle and mode in any case; anything else does not parse", () => {
    assert.deepStrictEqual(
      parseReceiveAddress(receiveAddressOf("acme-7fk2", "test")),
      Option.some({ handle: "acme-7fk2", mode: "test" })
    )
    assert.deepStrictEqual(parseReceiveAddress("ACME-7FK2@SVC"), Option.some({ handle: "acme-7fk2", mode: "live" }))
    for (const bad of ["acme-7fk2", "acme-7fk0@svc", "acme@svc", "acme-7fk2@other.svc", "-7fk2@svc", "a--b-7fk2@svc"]) {
      assert.isTrue(Option.isNone(parseReceiveAddress(bad)), bad)
    }
    assert.strictEqual(normalizePaymentCode(" pc-7fk2abcd "), "PC-7FK2ABCD")
    assert.isUndefined(normalizePaymentCode("PC-7FK2ABC0"))
    assert.isUndefined(normalizePaymentCode("PC-7FK2ABC"))
  })
})

import { assert, describe, it } from "@effect/vitest"
import { Sha256Node } from "@svc/api"
import { fingerprintBody, hashSecret, s256Challenge } from "@svc/domain"
import { Effect } from "effect"

const inputs: ReadonlyArray<Uint8Array> = [
  new Uint8Array(0),
  new TextEncoder().encode("abc"),
  new TextEncoder().encode("svc_test_ünïcode-secret"),
  Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 31) & 0xff)
]

/** Each digest the domain takes, by the WebCrypto default and by the Node digest the service runs with. */
const digests = Effect.forEach(inputs, (bytes) =>
  Effect.all([
    fingerprintBody(bytes),
    hashSecret(new TextDecoder().decode(bytes.subarray(0, 64))),
    s256Challenge("v".repeat(43))
  ])
)

describe("SHA-256 behind secrets, fingerprints and PKCE", () => {
  it.effect("the Node digest gives exactly the WebCrypto default's answers, known vectors included", () =>
    Effect.gen(function* () {
      const portable = yield* digests
      const native = yield* digests.pipe(Effect.provide(Sha256Node))
      assert.deepStrictEqual(native, portable)
      assert.strictEqual(portable[0]?.[0], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
      assert.strictEqual(portable[1]?.[0], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
      assert.strictEqual(portable[1]?.[1], portable[1]?.[0])
    })
  )
})

import { assert, describe, it } from "@effect/vitest"
import { base64DecodedSize, base64Stream } from "@svc/domain"
import { Effect, Stream } from "effect"

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256)

describe("base64 attachments", () => {
  it.effect("decode slice by slice to the same bytes, of the size computed from the text alone", () =>
    Effect.gen(function* () {
      for (const n of [0, 1, 2, 3, 49_151, 49_152, 200_001]) {
        const content = bytes(n)
        const text = Buffer.from(content).toString("base64")
        assert.strictEqual(base64DecodedSize(text), n, `size of ${n}`)
        const chunks = yield* Stream.runCollect(base64Stream(text, () => "invalid" as const))
        assert.deepStrictEqual(new Uint8Array(Buffer.concat(chunks)), content, `content of ${n}`)
        if (n > 100_000) assert.isAbove(chunks.length, 1, "several slices")
      }
    })
  )

  it.effect("text that is not base64 fails the stream with the caller's error", () =>
    Effect.gen(function* () {
      const failure = yield* Stream.runCollect(base64Stream("abcde", () => "invalid" as const)).pipe(Effect.flip)
      assert.strictEqual(failure, "invalid")
    })
  )
})

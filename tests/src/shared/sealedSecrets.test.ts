import { assert, describe, it } from "@effect/vitest"
import { SealedSecrets } from "@svc/domain"
import { Effect, Redacted } from "effect"

const KEY = Redacted.make("a-configured-secret-of-at-least-32-characters")
const OTHER_KEY = Redacted.make("another-configured-secret-of-32-characters!")

const sealer = (key: Redacted.Redacted<string>) => SealedSecrets.make(key)

/** The failure's tag, or "opened" when it opened. */
const openOutcome = (sealed: string, key = KEY) =>
  Effect.flatMap(sealer(key), (s) =>
    s.open(sealed).pipe(
      Effect.map(() => "opened"),
      Effect.catchTag("SealedSecretInvalid", (e) => Effect.succeed(e._tag))
    )
  )

describe("sealed secrets (AES-256-GCM at rest)", () => {
  it.effect("opens what it sealed, never shows the plaintext, and seals the same value differently each time", () =>
    Effect.gen(function* () {
      const s = yield* sealer(KEY)
      const token = "xoxb-1234-bot-token-ünïcode"
      const first = yield* s.seal(token)
      const second = yield* s.seal(token)
      assert.notStrictEqual(first, second)
      assert.notInclude(first, "xoxb")
      assert.match(first, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/u)
      assert.strictEqual(yield* s.open(first), token)
      assert.strictEqual(yield* s.open(second), token)
      assert.strictEqual(yield* (yield* sealer(KEY)).open(first), token, "a new instance with the same key opens it")
      assert.strictEqual(yield* s.open(yield* s.seal("")), "")
    })
  )

  it.effect("refuses a value altered in any part, sealed under another key, or malformed", () =>
    Effect.gen(function* () {
      const sealed = yield* (yield* sealer(KEY)).seal("refresh-token")
      const [version, iv, body] = sealed.split(".") as [string, string, string]
      const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
      for (const altered of [
        `${version}.${flip(iv, 3)}.${body}`,
        `${version}.${iv}.${flip(body, 0)}`,
        `${version}.${iv}.${flip(body, body.length - 2)}`,
        `${version}.${iv}.${body.slice(0, -4)}`,
        `v2.${iv}.${body}`,
        `${sealed}.extra`,
        `${version}.${iv}`,
        `${version}.${iv}.${body}!`,
        "",
        "refresh-token"
      ]) {
        assert.strictEqual(yield* openOutcome(altered), "SealedSecretInvalid", altered)
      }
      assert.strictEqual(yield* openOutcome(sealed, OTHER_KEY), "SealedSecretInvalid")
      assert.strictEqual(yield* openOutcome(sealed), "opened")
    })
  )
})

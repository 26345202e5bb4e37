import { assert, it } from "@effect/vitest"
import { FileStorageMemory } from "@svc/adapters-memory"
import { FileAccess, FileKeys, FileLinks, FileStorage, StorageKey, TeamId } from "@svc/domain"
import { Effect, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"

const team = TeamId.make("0b6a4f8e-3a4e-4c8e-9a53-2f7e0c9d1a11")
const other = TeamId.make("7d1c2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f")
const key = StorageKey.make(`vault/${team}/documents/d1`)

const access = FileAccess.layer.pipe(
  Layer.provideMerge(FileStorageMemory),
  Layer.provide([FileKeys.layer("test-file-key-secret"), FileLinks.layer("test-presigned-url-key")])
)

const stored = Effect.gen(function* () {
  const storage = yield* FileStorage
  yield* storage.write(key, Stream.make(new TextEncoder().encode("%PDF")), {
    name: "contract.pdf",
    contentType: "application/pdf",
    maxBytes: 1024
  })
  return yield* FileAccess
})

const refusal = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) => ("reason" in e ? `${e._tag}:${String(e.reason)}` : e._tag))

it.layer(access)("presigned file links (FileAccess over the memory store, TestClock)", (it) => {
  it.effect("opens until its expiry, with the milliseconds left, and is refused from the expiry on", () =>
    Effect.gen(function* () {
      const files = yield* stored
      const link = yield* files.presign(team, key, { lifetimeSeconds: 60, download: true })
      const opened = yield* files.openLink(link)
      assert.strictEqual(opened.file.name, "contract.pdf")
      assert.strictEqual(opened.millisLeft, 60_000)
      yield* TestClock.adjust("59999 millis")
      assert.strictEqual((yield* files.openLink(link)).millisLeft, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(yield* refusal(files.openLink(link)), "FileLinkRefused:expired")
    })
  )

  it.effect("refuses a link whose path, expiry, disposition or signature was changed", () =>
    Effect.gen(function* () {
      const files = yield* stored
      const link = yield* files.presign(team, key, { lifetimeSeconds: 60, download: true })
      for (const tampered of [
        { ...link, key: `vault/${team}/documents/d2` },
        { ...link, key: `vault/${other}/documents/d1` },
        { ...link, expires: link.expires + 3600 },
        { ...link, download: false },
        { ...link, signature: `${link.signature.slice(0, -1)}${link.signature.endsWith("A") ? "B" : "A"}` },
        { ...link, signature: "" }
      ]) {
        assert.strictEqual(yield* refusal(files.openLink(tampered)), "FileLinkRefused:signature")
      }
      assert.strictEqual(
        yield* refusal(files.openLink({ ...link, key: `vault/${team}/../x` })),
        "InvalidFilePath:relative segment"
      )
    })
  )

  it.effect("signs only a path of the team's own folder", () =>
    Effect.gen(function* () {
      const files = yield* stored
      const refused = yield* refusal(files.presign(other, key, { lifetimeSeconds: 60, download: true }))
      assert.strictEqual(refused, "InvalidFilePath:not a file of the team")
    })
  )
})

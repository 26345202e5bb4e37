import { assert, layer } from "@effect/vitest"
import { FileStorage, type StorageKey, storageKey, TeamId } from "@svc/domain"
import { Effect, type Layer, Result, Stream } from "effect"

const team = TeamId.make("0190a3b4-0000-7000-8000-00000000f11e")
const keyOf = (...segments: Array<string>): StorageKey => Result.getOrThrow(storageKey(team, segments))
const bytes = (text: string) => new TextEncoder().encode(text)
const text = (chunks: ReadonlyArray<Uint8Array>) => Buffer.concat(chunks).toString("utf8")
/** Write options: the file's name, its type and the size limit. */
const as = (name: string, contentType: string, maxBytes: number) => ({
  name,
  contentType: contentType,
  maxBytes
})

const readAll = (key: StorageKey) =>
  Effect.gen(function* () {
    const { file, content } = yield* (yield* FileStorage).read(key)
    return { file, text: text(yield* Stream.runCollect(content)) }
  })

/** How every FileStorage adapter stores files: streamed writes and reads with name and type, the size limit, replacing, removing. */
export const fileStorageContract = <E>(name: string, storage: Layer.Layer<FileStorage, E>) =>
  layer(storage)(`FileStorage contract (${name})`, (it) => {
    it.effect("a file written in chunks reads back byte for byte, with its content type and size", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("documents", "report.txt")
        const chunks = ["hello, ", "wörld", "\n", "x".repeat(70_000)].map(bytes)
        const stored = yield* files.write(
          key,
          Stream.fromIterable(chunks),
          as("Q1 report (final).txt", "text/plain", 1 << 20)
        )
        const size = chunks.reduce((n, c) => n + c.byteLength, 0)
        assert.deepStrictEqual(stored, {
          key,
          name: "Q1 report (final).txt",
          contentType: "text/plain",
          size
        })
        const back = yield* readAll(key)
        assert.deepStrictEqual(back.file, stored)
        assert.strictEqual(back.text, text(chunks))
      })
    )

    it.effect("a file of exactly the limit is stored; one byte more is refused and leaves the file before it", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("limit", "a.bin")
        yield* files.write(key, Stream.make(bytes("12345")), as("a.bin", "application/octet-stream", 5))
        const refused = yield* files
          .write(key, Stream.make(bytes("123"), bytes("456")), as("b.txt", "text/plain", 5))
          .pipe(Effect.flip)
        assert.deepStrictEqual(refused._tag, "FileTooLarge")
        const back = yield* readAll(key)
        assert.strictEqual(back.text, "12345")
        assert.strictEqual(back.file.contentType, "application/octet-stream")
      })
    )

    it.effect("a write whose content fails stores nothing", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("broken", "upload.pdf")
        const content = Stream.concat(Stream.make(bytes("partial")), Stream.fail("connection reset" as const))
        const failed = yield* files.write(key, content, as("upload.pdf", "application/pdf", 100)).pipe(Effect.flip)
        assert.strictEqual(failed, "connection reset")
        const missing = yield* files.read(key).pipe(Effect.flip)
        assert.strictEqual(missing._tag, "FileNotFound")
      })
    )

    it.effect("writing again replaces the file; removing it makes it not found, and removing again succeeds", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("replace", "note.txt")
        yield* files.write(key, Stream.make(bytes("first version, longer")), as("note.txt", "text/plain", 100))
        yield* files.write(key, Stream.make(bytes("second")), as("note.md", "text/markdown; charset=utf-8", 100))
        const back = yield* readAll(key)
        assert.strictEqual(back.text, "second")
        assert.deepStrictEqual(back.file, {
          key,
          name: "note.md",
          contentType: "text/markdown; charset=utf-8",
          size: 6
        })
        yield* files.remove(key)
        assert.strictEqual((yield* files.read(key).pipe(Effect.flip))._tag, "FileNotFound")
        yield* files.remove(key)
      })
    )

    it.effect("an empty file is a file", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("empty.txt")
        yield* files.write(key, Stream.empty, as("empty.txt", "text/plain", 10))
        const back = yield* readAll(key)
        assert.deepStrictEqual(back, {
          file: { key, name: "empty.txt", contentType: "text/plain", size: 0 },
          text: ""
        })
      })
    )

    it.effect("concurrent writes of one key leave one whole version, never a mix", () =>
      Effect.gen(function* () {
        const files = yield* FileStorage
        const key = keyOf("race", "same.txt")
        const versions = ["a", "b", "c", "d", "e", "f"].map((letter) => letter.repeat(100_000))
        yield* Effect.forEach(
          versions,
          (version) =>
            files.write(
              key,
              Stream.fromIterable([version.slice(0, 50_000), version.slice(50_000)].map(bytes)),
              as(`${version[0]}.txt`, "text/plain", 1 << 20)
            ),
          { concurrency: "unbounded" }
        )
        const back = yield* readAll(key)
        assert.include(versions, back.text)
        assert.strictEqual(back.file.size, 100_000)
        assert.strictEqual(back.file.name, `${back.text[0]}.txt`)
      })
    )
  })

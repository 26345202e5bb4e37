import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, it } from "@effect/vitest"
import { FileStorageFs } from "@svc/adapters-fs"
import { FileStorage, StorageKey, storageKey, TeamId } from "@svc/domain"
import { Effect, Exit, Result, Stream } from "effect"
import { fileStorageContract } from "./FileStorageContract.ts"

const root = mkdtempSync(join(tmpdir(), "svc-files-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

fileStorageContract("filesystem", FileStorageFs(root))

const team = TeamId.make("0190a3b4-0000-7000-8000-0000000000f5")
const bytes = (text: string) => new TextEncoder().encode(text)
const keyOf = (...segments: Array<string>) => Result.getOrThrow(storageKey(team, segments))
const as = (name: string, contentType: string, maxBytes: number) => ({
  name,
  contentType: contentType,
  maxBytes
})
const textOf = (files: FileStorage["Service"], key: StorageKey) =>
  Effect.gen(function* () {
    const { content } = yield* files.read(key)
    return Buffer.concat(yield* Stream.runCollect(content)).toString("utf8")
  })

const withStorage = <A, E>(dir: string, f: (files: FileStorage["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    return yield* f(yield* FileStorage)
  }).pipe(
    Effect.provide(FileStorageFs(dir)),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  )

/** A folder outside every store, holding `secret.txt`; removed after the test. */
const outsideFolder = () =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "svc-outside-"))
      writeFileSync(join(dir, "secret.txt"), "outside the store")
      return dir
    }),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

const layoutDir = mkdtempSync(join(tmpdir(), "svc-files-layout-"))
it.effect("files live under <root>/vault/{teamId}/...; a refused write leaves no temporary file behind", () =>
  withStorage(layoutDir, (files) =>
    Effect.gen(function* () {
      const dir = layoutDir
      const key = keyOf("documents", "a.txt")
      yield* files.write(key, Stream.make(bytes("on disk")), as("a.txt", "text/plain", 100))
      assert.strictEqual(readFileSync(join(dir, "vault", team, "documents", "a.txt"), "utf8"), "on disk")
      const refused = yield* files
        .write(key, Stream.make(bytes("far too long for the limit")), as("a.txt", "text/plain", 5))
        .pipe(Effect.flip)
      assert.strictEqual(refused._tag, "FileTooLarge")
      assert.deepStrictEqual(readdirSync(join(dir, ".tmp")), [])
      assert.strictEqual(readFileSync(join(dir, "vault", team, "documents", "a.txt"), "utf8"), "on disk")
    })
  )
)

const escapeDir = mkdtempSync(join(tmpdir(), "svc-files-escape-"))
it.effect("a key that would resolve outside the root's vault folder is never touched (a defect, not a read)", () =>
  withStorage(join(escapeDir, "root"), (files) =>
    Effect.gen(function* () {
      const dir = escapeDir
      for (const escaping of ["vault/../.tmp/x.txt", "vault/../.meta/x.txt", "vault/../../x.txt", "elsewhere/x.txt"]) {
        const exit = yield* Effect.exit(
          files.write(StorageKey.make(escaping), Stream.make(bytes("x")), as("x.txt", "text/plain", 10))
        )
        assert.isTrue(Exit.hasDies(exit), escaping)
      }
      const forged = StorageKey.make("vault/../../outside.txt")
      assert.isFalse(existsSync(join(dir, "outside.txt")))
      assert.isFalse(existsSync(join(dir, "x.txt")))
      assert.isTrue(Exit.hasDies(yield* Effect.exit(files.read(forged))))
      assert.isTrue(Exit.hasDies(yield* Effect.exit(files.remove(forged))))
    })
  )
)

const sidecarDir = mkdtempSync(join(tmpdir(), "svc-files-sidecar-"))
it.effect("a write whose name and type cannot be put in place fails and leaves the file that was there, or none", () =>
  withStorage(sidecarDir, (files) =>
    Effect.gen(function* () {
      const dir = sidecarDir
      const fresh = keyOf("documents", "fresh")
      const kept = keyOf("documents", "kept")
      yield* files.write(kept, Stream.make(bytes("first")), as("first.txt", "text/plain", 100))
      for (const key of [fresh, kept]) {
        const blocked = join(dir, ".meta", `${key}.json`)
        rmSync(blocked, { force: true })
        mkdirSync(join(blocked, "in-the-way"), { recursive: true })
        const failed = yield* files
          .write(key, Stream.make(bytes("second")), as("b.pdf", "application/pdf", 100))
          .pipe(Effect.flip)
        assert.strictEqual(failed._tag, "FileStoreUnavailable")
        rmSync(blocked, { recursive: true })
      }
      assert.isFalse(existsSync(join(dir, fresh)))
      assert.strictEqual(readFileSync(join(dir, kept), "utf8"), "first")
      assert.deepStrictEqual(readdirSync(join(dir, ".tmp")), [])
    })
  )
)

const restoreDir = mkdtempSync(join(tmpdir(), "svc-files-restore-"))
it.effect("a write whose content cannot be put in place leaves the name and type that were there", () =>
  withStorage(restoreDir, (files) =>
    Effect.gen(function* () {
      const dir = restoreDir
      const key = keyOf("documents", "doc")
      yield* files.write(key, Stream.make(bytes("first")), as("first.txt", "text/plain", 100))
      const sidecar = readFileSync(join(dir, ".meta", `${key}.json`), "utf8")
      rmSync(join(dir, key))
      mkdirSync(join(dir, key, "in-the-way"), { recursive: true })
      const failed = yield* files
        .write(key, Stream.make(bytes("second")), as("b.pdf", "application/pdf", 100))
        .pipe(Effect.flip)
      assert.strictEqual(failed._tag, "FileStoreUnavailable")
      assert.strictEqual(readFileSync(join(dir, ".meta", `${key}.json`), "utf8"), sidecar)
      assert.deepStrictEqual(readdirSync(join(dir, ".tmp")), [])
    })
  )
)

const legacyDir = mkdtempSync(join(tmpdir(), "svc-files-legacy-"))
it.effect("a file stored before names were kept reads back under the last segment of its key", () =>
  withStorage(legacyDir, (files) =>
    Effect.gen(function* () {
      const key = keyOf("inbox", "item", "invoice.pdf")
      yield* files.write(key, Stream.make(bytes("%PDF")), as("Invoice (March).pdf", "application/pdf", 100))
      writeFileSync(join(legacyDir, ".meta", `${key}.json`), JSON.stringify({ contentType: "application/pdf" }))
      const { file } = yield* files.read(key)
      assert.deepStrictEqual(file, { key, name: "invoice.pdf", contentType: "application/pdf", size: 4 })
    })
  )
)

const linkedFileDir = mkdtempSync(join(tmpdir(), "svc-files-linked-file-"))
it.effect(
  "a file, or its sidecar, that is a symbolic link is neither read nor written through; removing drops the link",
  () =>
    withStorage(linkedFileDir, (files) =>
      Effect.gen(function* () {
        const dir = linkedFileDir
        const outside = yield* outsideFolder()
        const secret = join(outside, "secret.txt")
        const data = keyOf("documents", "data-link")
        const meta = keyOf("documents", "meta-link")
        for (const key of [data, meta]) {
          yield* files.write(key, Stream.make(bytes("mine")), as("mine.txt", "text/plain", 100))
        }
        rmSync(join(dir, data))
        symlinkSync(secret, join(dir, data))
        rmSync(join(dir, ".meta", `${meta}.json`))
        symlinkSync(secret, join(dir, ".meta", `${meta}.json`))
        for (const key of [data, meta]) {
          assert.strictEqual((yield* files.read(key).pipe(Effect.flip))._tag, "FileStoreUnavailable")
          const written = yield* files
            .write(key, Stream.make(bytes("overwrite")), as("x.txt", "text/plain", 100))
            .pipe(Effect.flip)
          assert.strictEqual(written._tag, "FileStoreUnavailable")
          assert.strictEqual(readFileSync(secret, "utf8"), "outside the store")
        }
        yield* files.remove(data)
        assert.isFalse(existsSync(join(dir, data)))
        assert.strictEqual(readFileSync(secret, "utf8"), "outside the store")
      }).pipe(Effect.scoped)
    )
)

const linkedFolderDir = mkdtempSync(join(tmpdir(), "svc-files-linked-folder-"))
it.effect("a folder of the store that is a symbolic link is never read, written, created in or removed from", () =>
  withStorage(linkedFolderDir, (files) =>
    Effect.gen(function* () {
      const dir = linkedFolderDir
      const outside = yield* outsideFolder()
      mkdirSync(join(dir, "vault"), { recursive: true })
      symlinkSync(outside, join(dir, "vault", team))
      const through = keyOf("secret.txt")
      assert.strictEqual((yield* files.read(through).pipe(Effect.flip))._tag, "FileStoreUnavailable")
      const deeper = keyOf("documents", "new.txt")
      const written = yield* files
        .write(deeper, Stream.make(bytes("x")), as("new.txt", "text/plain", 100))
        .pipe(Effect.flip)
      assert.strictEqual(written._tag, "FileStoreUnavailable")
      assert.strictEqual((yield* files.remove(through).pipe(Effect.flip))._tag, "FileStoreUnavailable")
      assert.deepStrictEqual(readdirSync(outside), ["secret.txt"])
      assert.strictEqual(readFileSync(join(outside, "secret.txt"), "utf8"), "outside the store")

      rmSync(join(dir, ".tmp"), { recursive: true, force: true })
      symlinkSync(outside, join(dir, ".tmp"))
      const staged = yield* files
        .write(keyOf("elsewhere.txt"), Stream.make(bytes("x")), as("e.txt", "text/plain", 9))
        .pipe(Effect.flip)
      assert.strictEqual(staged._tag, "FileStoreUnavailable")
      assert.deepStrictEqual(readdirSync(outside), ["secret.txt"])
    }).pipe(Effect.scoped)
  )
)

const linkedRootParent = mkdtempSync(join(tmpdir(), "svc-files-linked-root-"))
it.effect("the root itself may be a symbolic link an operator chose", () =>
  Effect.gen(function* () {
    mkdirSync(join(linkedRootParent, "volume"))
    symlinkSync(join(linkedRootParent, "volume"), join(linkedRootParent, "root"))
    const key = keyOf("documents", "a.txt")
    const text = yield* withStorage(join(linkedRootParent, "root"), (files) =>
      files
        .write(key, Stream.make(bytes("through the root link")), as("a.txt", "text/plain", 100))
        .pipe(Effect.andThen(textOf(files, key)))
    )
    assert.strictEqual(text, "through the root link")
    assert.isTrue(existsSync(join(linkedRootParent, "volume", key)))
  }).pipe(Effect.ensuring(Effect.sync(() => rmSync(linkedRootParent, { recursive: true, force: true }))))
)

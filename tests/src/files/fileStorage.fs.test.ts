import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
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

const withStorage = <A, E>(dir: string, f: (files: FileStorage["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    return yield* f(yield* FileStorage)
  }).pipe(
    Effect.provide(FileStorageFs(dir)),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  )

const layoutDir = mkdtempSync(join(tmpdir(), "svc-files-layout-"))
it.effect("files live under <root>/vault/{teamId}/...; a refused write leaves no temporary file behind", () =>
  withStorage(layoutDir, (files) =>
    Effect.gen(function* () {
      const dir = layoutDir
      const key = Result.getOrThrow(storageKey(team, ["documents", "a.txt"]))
      yield* files.write(key, Stream.make(bytes("on disk")), { contentType: "text/plain", maxBytes: 100 })
      assert.strictEqual(readFileSync(join(dir, "vault", team, "documents", "a.txt"), "utf8"), "on disk")
      const refused = yield* files
        .write(key, Stream.make(bytes("far too long for the limit")), { contentType: "text/plain", maxBytes: 5 })
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
          files.write(StorageKey.make(escaping), Stream.make(bytes("x")), { contentType: "text/plain", maxBytes: 10 })
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

import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises"
import { dirname, resolve, sep } from "node:path"
import {
  FileNotFound,
  FileStorage,
  FileTooLarge,
  PersistenceUnavailable,
  type StorageKey,
  type StoredFile
} from "@svc/domain"
import { Effect, Layer, Option, Schema, Semaphore, Stream } from "effect"

const Sidecar = Schema.fromJsonString(Schema.Struct({ contentType: Schema.String }))
const LOCK_STRIPES = 64
const UNKNOWN_TYPE = "application/octet-stream"

const isMissing = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { readonly code?: unknown }).code === "ENOENT"

/** The stripe a key's lock is on: a key always maps to the same one, so writes and removes of a key never overlap. */
const stripeOf = (key: string) => {
  let hash = 0
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0
  return Math.abs(hash) % LOCK_STRIPES
}

/**
 * FileStorage on a filesystem under `root`: a file's content at `<root>/vault/{teamId}/...`, its content type in a
 * sidecar under `<root>/.meta/`. A write streams to `<root>/.tmp/` and is renamed into place, so readers see the old
 * file or the whole new one; a key's writes, removes and the opening of its reads are serialised. A path that would
 * resolve outside `root` is refused as a defect (keys are validated by the domain before they get here).
 */
export const FileStorageFs = (root: string) =>
  Layer.effect(
    FileStorage,
    Effect.gen(function* () {
      const base = resolve(root)
      const locks = yield* Effect.forEach(Array.from({ length: LOCK_STRIPES }), () => Semaphore.make(1))
      /** `relative` resolved under the root's `folder`; a path that would leave it throws (a defect where it is used). */
      const inside = (folder: string, relative: string) => {
        const top = resolve(base, folder)
        const path = resolve(top, relative)
        if (!path.startsWith(top + sep)) throw new Error(`path outside ${folder}: ${relative}`)
        return path
      }
      const pathsOf = (key: StorageKey) => {
        if (!key.startsWith("vault/")) throw new Error(`not a vault key: ${key}`)
        const relative = key.slice("vault/".length)
        return { data: inside("vault", relative), meta: inside(".meta/vault", `${relative}.json`) }
      }
      const serialised = <A, E>(key: StorageKey, effect: Effect.Effect<A, E>) =>
        Semaphore.withPermit(locks[stripeOf(key)]!, effect)
      const io = <A>(operation: string, run: () => Promise<A>) =>
        Effect.tryPromise({ try: run, catch: (cause) => cause }).pipe(
          Effect.catch((cause) =>
            Effect.logError("file storage failed", { operation }, cause).pipe(
              Effect.andThen(Effect.fail(new PersistenceUnavailable({ operation })))
            )
          )
        )

      const write = <E>(
        key: StorageKey,
        content: Stream.Stream<Uint8Array, E>,
        options: { readonly contentType: string; readonly maxBytes: number }
      ) =>
        Effect.gen(function* () {
          const paths = pathsOf(key)
          const temp = inside(".tmp", crypto.randomUUID())
          const handle = yield* io("files.write", async () => {
            await mkdir(dirname(temp), { recursive: true })
            return open(temp, "wx")
          })
          const discard = Effect.promise(async () => {
            await handle.close().catch(() => undefined)
            await rm(temp, { force: true })
            await rm(`${temp}.meta`, { force: true })
          })
          const size = yield* Stream.runFoldEffect(
            content,
            () => 0,
            (written, chunk): Effect.Effect<number, FileTooLarge | PersistenceUnavailable> => {
              const next = written + chunk.byteLength
              if (next > options.maxBytes) return Effect.fail(new FileTooLarge({ maxBytes: options.maxBytes }))
              return io("files.write", () => handle.write(chunk).then(() => next))
            }
          ).pipe(Effect.onError(() => discard))
          yield* io("files.write", async () => {
            await handle.datasync()
            await handle.close()
          }).pipe(Effect.onError(() => discard))
          yield* serialised(
            key,
            io("files.write", async () => {
              await mkdir(dirname(paths.data), { recursive: true })
              await mkdir(dirname(paths.meta), { recursive: true })
              await writeFile(`${temp}.meta`, JSON.stringify({ contentType: options.contentType }))
              await rename(temp, paths.data)
              await rename(`${temp}.meta`, paths.meta)
            })
          ).pipe(Effect.onError(() => discard))
          const stored: StoredFile = { key, contentType: options.contentType, size }
          return stored
        })

      const read = (key: StorageKey) =>
        Effect.gen(function* () {
          const paths = pathsOf(key)
          const opened = yield* serialised(
            key,
            io("files.read", async () => {
              let handle: Awaited<ReturnType<typeof open>>
              try {
                handle = await open(paths.data, "r")
              } catch (error) {
                if (isMissing(error)) return undefined
                throw error
              }
              try {
                const { size } = await handle.stat()
                const sidecar = await readFile(paths.meta, "utf8").catch((error: unknown) => {
                  if (isMissing(error)) return undefined
                  throw error
                })
                return { handle, size, sidecar }
              } catch (error) {
                await handle.close()
                throw error
              }
            })
          )
          if (opened === undefined) return yield* new FileNotFound({ key })
          const sidecar = Schema.decodeUnknownOption(Sidecar)(opened.sidecar)
          const contentType = Option.match(sidecar, { onNone: () => UNKNOWN_TYPE, onSome: (s) => s.contentType })
          const file: StoredFile = { key, contentType, size: opened.size }
          const content = Stream.fromAsyncIterable(
            opened.handle.createReadStream({ autoClose: true }) as AsyncIterable<Uint8Array>,
            () => new PersistenceUnavailable({ operation: "files.read" })
          ).pipe(Stream.ensuring(Effect.promise(() => opened.handle.close().catch(() => undefined))))
          return { file, content }
        })

      const remove = (key: StorageKey) =>
        Effect.suspend(() => {
          const paths = pathsOf(key)
          return serialised(
            key,
            io("files.remove", async () => {
              await rm(paths.data, { force: true })
              await rm(paths.meta, { force: true })
            })
          )
        })

      return FileStorage.of({ write, read, remove })
    })
  )

import { constants } from "node:fs"
import { lstat, mkdir, open, realpath, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join, relative, resolve, sep } from "node:path"
import {
  FileNotFound,
  FileStorage,
  FileStoreUnavailable,
  FileTooLarge,
  fileNameOf,
  type StorageKey,
  type StoredFile,
  UNKNOWN_CONTENT_TYPE
} from "@svc/domain"
import { Effect, Layer, Option, Schema, Semaphore, Stream } from "effect"

const Sidecar = Schema.fromJsonString(
  Schema.Struct({ contentType: Schema.String, name: Schema.optionalKey(Schema.String) })
)
const LOCK_STRIPES = 64
const READ = constants.O_RDONLY | constants.O_NOFOLLOW
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

const codeOf = (error: unknown) =>
  typeof error === "object" && error !== null ? (error as { readonly code?: unknown }).code : undefined
const isMissing = (error: unknown) => codeOf(error) === "ENOENT"

/** What the store refuses rather than follow: a symbolic link where its own file or folder should be. */
const linkRefused = (path: string) => new Error(`a symbolic link in the file store is refused: ${path}`)

/** The stripe a key's lock is on: a key always maps to the same one, so writes and removes of a key never overlap. */
const stripeOf = (key: string) => {
  let hash = 0
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0
  return Math.abs(hash) % LOCK_STRIPES
}

/** What is at `path` itself (a link is not followed); undefined when there is nothing. */
const lstatOf = (path: string) =>
  lstat(path).catch((error: unknown) => {
    if (isMissing(error)) return undefined
    throw error
  })

/** The open file at `path`, never through a link at its last segment; undefined when there is none. */
const openExisting = (path: string) =>
  open(path, READ).catch((error: unknown) => {
    if (isMissing(error)) return undefined
    if (codeOf(error) === "ELOOP") throw linkRefused(path)
    throw error
  })

/**
 * FileStorage on a filesystem under `root`: a file's content at `<root>/vault/{teamId}/...`, its content type and
 * name in a sidecar under `<root>/.meta/`. A write streams to `<root>/.tmp/` and is renamed into place, the sidecar
 * first, then the content (the sidecar put back as it was when that fails), so readers see the old file or the whole
 * new one and a failed write leaves nothing of itself; a key's writes, removes and the opening of its reads are
 * serialised. Nothing is read, written or created through a symbolic link: every folder below the root is checked
 * (`lstat`, one segment at a time, created one at a time) and files are opened with `O_NOFOLLOW`; a link is refused as
 * a store failure (logged). A path that would resolve outside `root` is refused as a defect (keys are validated by the
 * domain before they get here).
 */
export const FileStorageFs = (root: string) =>
  Layer.effect(
    FileStorage,
    Effect.gen(function* () {
      // The root itself may be a link an operator chose; everything below it is the store's own.
      const base = yield* Effect.promise(async () => {
        await mkdir(resolve(root), { recursive: true })
        return realpath(resolve(root))
      })
      const locks = yield* Effect.forEach(Array.from({ length: LOCK_STRIPES }), () => Semaphore.make(1))
      /** `relative` resolved under the root's `folder`; a path that would leave it throws (a defect where it is used). */
      const inside = (folder: string, relativePath: string) => {
        const top = resolve(base, folder)
        const path = resolve(top, relativePath)
        if (!path.startsWith(top + sep)) throw new Error(`path outside ${folder}: ${relativePath}`)
        return path
      }
      const pathsOf = (key: StorageKey) => {
        if (!key.startsWith("vault/")) throw new Error(`not a vault key: ${key}`)
        const relativePath = key.slice("vault/".length)
        return { data: inside("vault", relativePath), meta: inside(".meta/vault", `${relativePath}.json`) }
      }
      /**
       * Whether the folder `dir` under the root exists as folders all the way down, each checked with `lstat` (a link
       * throws); with `create`, the missing ones are made one at a time, so none is ever made through a link.
       */
      const folder = async (dir: string, create: boolean) => {
        let current = base
        for (const segment of relative(base, dir).split(sep)) {
          current = join(current, segment)
          if (create) {
            await mkdir(current).catch((error: unknown) => {
              if (codeOf(error) !== "EEXIST") throw error
            })
          }
          const stat = await lstatOf(current)
          if (stat === undefined) return false
          if (stat.isSymbolicLink()) throw linkRefused(current)
          if (!stat.isDirectory()) throw new Error(`not a folder in the file store: ${current}`)
        }
        return true
      }
      /** Refuses a link at `path`, which a rename would replace. */
      const noLinkAt = async (path: string) => {
        if ((await lstatOf(path))?.isSymbolicLink() === true) throw linkRefused(path)
      }
      /** The sidecar's text at `path`, undefined when there is none. */
      const sidecarAt = async (path: string) => {
        if (!(await folder(dirname(path), false))) return undefined
        const handle = await openExisting(path)
        if (handle === undefined) return undefined
        try {
          return await handle.readFile("utf8")
        } finally {
          await handle.close()
        }
      }
      const serialised = <A, E>(key: StorageKey, effect: Effect.Effect<A, E>) =>
        Semaphore.withPermit(locks[stripeOf(key)]!, effect)
      const io = <A>(operation: string, run: () => Promise<A>) =>
        Effect.tryPromise({ try: run, catch: (cause) => cause }).pipe(
          Effect.catch((cause) =>
            Effect.logError("file storage failed", { operation }, cause).pipe(
              Effect.andThen(Effect.fail(new FileStoreUnavailable({ operation })))
            )
          )
        )

      const write = <E>(
        key: StorageKey,
        content: Stream.Stream<Uint8Array, E>,
        options: { readonly name: string; readonly contentType: string; readonly maxBytes: number }
      ) =>
        Effect.gen(function* () {
          const paths = pathsOf(key)
          const temp = inside(".tmp", crypto.randomUUID())
          const handle = yield* io("files.write", async () => {
            await folder(dirname(temp), true)
            return open(temp, CREATE)
          })
          const discard = Effect.promise(async () => {
            await handle.close().catch(() => undefined)
            await rm(temp, { force: true })
            await rm(`${temp}.meta`, { force: true })
          })
          const size = yield* Stream.runFoldEffect(
            content,
            () => 0,
            (written, chunk): Effect.Effect<number, FileTooLarge | FileStoreUnavailable> => {
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
              await folder(dirname(paths.data), true)
              await folder(dirname(paths.meta), true)
              await noLinkAt(paths.data)
              await noLinkAt(paths.meta)
              const sidecar = JSON.stringify({ contentType: options.contentType, name: options.name })
              await writeFile(`${temp}.meta`, sidecar, { flag: "wx" })
              const previous = await sidecarAt(paths.meta)
              await rename(`${temp}.meta`, paths.meta)
              try {
                await rename(temp, paths.data)
              } catch (error) {
                if (previous === undefined) await rm(paths.meta, { force: true })
                else await writeFile(paths.meta, previous)
                throw error
              }
            })
          ).pipe(Effect.onError(() => discard))
          const stored: StoredFile = { key, name: options.name, contentType: options.contentType, size }
          return stored
        })

      const read = (key: StorageKey) =>
        Effect.gen(function* () {
          const paths = pathsOf(key)
          const opened = yield* serialised(
            key,
            io("files.read", async () => {
              if (!(await folder(dirname(paths.data), false))) return undefined
              const handle = await openExisting(paths.data)
              if (handle === undefined) return undefined
              try {
                const stat = await handle.stat()
                if (!stat.isFile()) throw new Error(`not a file in the file store: ${paths.data}`)
                return { handle, size: stat.size, sidecar: await sidecarAt(paths.meta) }
              } catch (error) {
                await handle.close()
                throw error
              }
            })
          )
          if (opened === undefined) return yield* new FileNotFound({ key })
          const sidecar = Option.getOrUndefined(Schema.decodeUnknownOption(Sidecar)(opened.sidecar))
          const file: StoredFile = {
            key,
            name: sidecar?.name ?? fileNameOf(key),
            contentType: sidecar?.contentType ?? UNKNOWN_CONTENT_TYPE,
            size: opened.size
          }
          const content = Stream.fromAsyncIterable(
            opened.handle.createReadStream({ autoClose: true }) as AsyncIterable<Uint8Array>,
            () => new FileStoreUnavailable({ operation: "files.read" })
          ).pipe(Stream.ensuring(Effect.promise(() => opened.handle.close().catch(() => undefined))))
          return { file, content }
        })

      const remove = (key: StorageKey) =>
        Effect.suspend(() => {
          const paths = pathsOf(key)
          return serialised(
            key,
            io("files.remove", async () => {
              if (await folder(dirname(paths.data), false)) await rm(paths.data, { force: true })
              if (await folder(dirname(paths.meta), false)) await rm(paths.meta, { force: true })
            })
          )
        })

      return FileStorage.of({ write, read, remove })
    })
  )

import { Result, Schema } from "effect"
import { TeamId } from "../shared/model.ts"
import { InvalidFilePath } from "./FileErrors.ts"

/**
 * Where a file lives in the storage port: `vault/{teamId}/{segment}/.../{name}`. Only `storageKey` and
 * `parseVaultPath` make one, so an adapter never sees a path that could leave the team's folder.
 */
export const StorageKey = Schema.String.pipe(Schema.brand("StorageKey"))
export type StorageKey = typeof StorageKey.Type

const VAULT = "vault"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu
const MAX_SEGMENT_LENGTH = 255
const MAX_DECODINGS = 4

/** Why a segment cannot name a folder or file, or undefined when it can. */
const segmentProblem = (segment: string): string | undefined => {
  if (segment.length === 0) return "empty segment"
  if (segment === "." || segment === "..") return "relative segment"
  if (segment.length > MAX_SEGMENT_LENGTH) return "segment longer than 255 characters"
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\\/\u0000-\u001f\u007f]/u.test(segment)) return "separator or control character in a segment"
  return undefined
}

/** The key of a file of `teamId` under `segments` (each one folder or the file name), refused when a segment could escape. */
export const storageKey = (
  teamId: TeamId,
  segments: ReadonlyArray<string>
): Result.Result<StorageKey, InvalidFilePath> => {
  if (segments.length === 0) return Result.fail(new InvalidFilePath({ reason: "no file name" }))
  for (const segment of segments) {
    const problem = segmentProblem(segment)
    if (problem !== undefined) return Result.fail(new InvalidFilePath({ reason: problem }))
  }
  return Result.succeed(StorageKey.make([VAULT, teamId, ...segments].join("/")))
}

/** Percent-decodes until the text stops changing, so `%252e%252e` is read as `..` too; undefined when malformed. */
const fullyDecoded = (raw: string): string | undefined => {
  let text = raw
  for (let i = 0; i < MAX_DECODINGS; i++) {
    let next: string
    try {
      next = decodeURIComponent(text)
    } catch {
      return undefined
    }
    if (next === text) return text
    text = next
  }
  return undefined
}

/**
 * A client's file path (`filePath`, `path`), with or without the `vault/` prefix: `{teamId}/{...}/{name}`.
 * Refused: absolute paths, `.` and `..` segments (also percent-encoded, once or more), empty segments, backslashes,
 * control characters, a first segment that is not a team id.
 */
export const parseVaultPath = (
  raw: string
): Result.Result<{ readonly teamId: TeamId; readonly key: StorageKey }, InvalidFilePath> => {
  const decoded = fullyDecoded(raw)
  if (decoded === undefined) return Result.fail(new InvalidFilePath({ reason: "malformed percent-encoding" }))
  if (decoded.startsWith("/")) return Result.fail(new InvalidFilePath({ reason: "absolute path" }))
  const parts = decoded.split("/")
  const [first, ...rest] = parts[0] === VAULT ? parts.slice(1) : parts
  if (first === undefined || !UUID.test(first)) return Result.fail(new InvalidFilePath({ reason: "no team id" }))
  const teamId = TeamId.make(first.toLowerCase())
  return Result.map(storageKey(teamId, rest), (key) => ({ teamId, key }))
}

/** The last segment of a storage key. */
export const fileNameOf = (key: string): string => key.slice(key.lastIndexOf("/") + 1)

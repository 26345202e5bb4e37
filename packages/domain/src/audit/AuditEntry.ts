import { Option, Schema } from "effect"
import { Mode, TeamId } from "../shared/model.ts"

/** The `prevHash` of a team's first audit entry: 64 zeros. */
export const GENESIS_HASH = "0".repeat(64)

/**
 * One entry of a team's audit log as stored: its place in the team's chain (`seq` from 1), its canonical JSON
 * `content`, the previous entry's `hash`, and its own `hash`, the hex SHA-256 of the UTF-8 bytes of
 * `prevHash + content`. Only `content` says what happened; changing it, or any link, breaks the chain.
 */
export const AuditEntry = Schema.Struct({
  teamId: TeamId,
  seq: Schema.Int,
  id: Schema.String,
  content: Schema.String,
  prevHash: Schema.String,
  hash: Schema.String
})
export type AuditEntry = typeof AuditEntry.Type

/** What an audit entry says happened: what (`type`), in which mode (null for team-wide changes), when, the details. */
export const AuditRecord = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  mode: Schema.NullOr(Mode),
  at: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown)
})
export type AuditRecord = typeof AuditRecord.Type

/** An entry to append: the log gives it its place and hashes (`AuditLogRepo.append`). */
export interface AuditDraft {
  readonly teamId: TeamId
  readonly id: string
  /** The canonical JSON of an `AuditRecord` (`auditContent`). */
  readonly content: string
}

/** JSON with object keys sorted at every depth and no whitespace: one text for one value. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
}

/** The canonical content of a record. */
export const auditContent = (record: AuditRecord): string => canonicalJson(record)

/** An audit entry as its team sees it: what happened (read from its content) and its links. */
export const AuditEntryView = Schema.Struct({
  object: Schema.Literal("audit_entry"),
  seq: Schema.Int,
  ...AuditRecord.fields,
  prevHash: Schema.String,
  hash: Schema.String
})
export type AuditEntryView = typeof AuditEntryView.Type

const decodeRecord = Schema.decodeUnknownOption(Schema.fromJsonString(AuditRecord))

/** The view of an entry; content that no longer reads as a record (tampered with) shows as type `unreadable`. */
export const auditEntryView = (entry: AuditEntry): AuditEntryView => {
  const record = Option.getOrElse(
    decodeRecord(entry.content),
    (): AuditRecord => ({ id: entry.id, type: "unreadable", mode: null, at: "", data: { content: entry.content } })
  )
  return {
    object: "audit_entry",
    seq: entry.seq,
    id: entry.id,
    type: record.type,
    mode: record.mode,
    at: record.at,
    data: record.data,
    prevHash: entry.prevHash,
    hash: entry.hash
  }
}

/** Why a link of the chain is broken. */
export const AuditBreakReason = Schema.Literals([
  /** The entry's `hash` is not the SHA-256 of its `prevHash` and content: the entry was changed. */
  "hash_mismatch",
  /** The entry's `prevHash` is not the previous entry's `hash`: an entry before it was changed, removed or reordered. */
  "prev_hash_mismatch",
  /** The entry's `seq` does not follow the previous one: an entry is missing. */
  "seq_gap",
  /** The log ends before the chain's recorded head: entries at the end are missing. */
  "missing_entries"
])
export type AuditBreakReason = typeof AuditBreakReason.Type

/** The first broken link of a chain: the entry at which verification fails. */
export const AuditBreak = Schema.Struct({
  seq: Schema.Int,
  /** The entry's id; null when the entry is missing. */
  id: Schema.NullOr(Schema.String),
  reason: AuditBreakReason
})
export type AuditBreak = typeof AuditBreak.Type

/** The answer of verifying a team's chain. */
export const AuditVerification = Schema.Struct({
  object: Schema.Literal("audit_verification"),
  /** True when every entry links to the one before and hashes to its stored `hash`, up to the head. */
  valid: Schema.Boolean,
  /** How many entries were checked. */
  checked: Schema.Int,
  /** The last entry's `seq` and `hash` as recorded; null for an empty log. */
  head: Schema.NullOr(Schema.Struct({ seq: Schema.Int, hash: Schema.String })),
  firstBroken: Schema.NullOr(AuditBreak)
})
export type AuditVerification = typeof AuditVerification.Type

/** Where a verification walk stands: the last entry checked (`seq` 0 and `GENESIS_HASH` before the first). */
export interface ChainPosition {
  readonly seq: number
  readonly hash: string
}

/**
 * Checks one entry against the chain before it, given the hash recomputed from its `prevHash` and content: the
 * break it shows, if any. Pure; the hash is computed by the caller.
 */
export const checkLink = (
  before: ChainPosition,
  entry: Pick<AuditEntry, "seq" | "id" | "prevHash" | "hash">,
  recomputed: string
): AuditBreak | undefined => {
  if (entry.seq !== before.seq + 1) return { seq: before.seq + 1, id: null, reason: "seq_gap" }
  if (entry.prevHash !== before.hash) return { seq: entry.seq, id: entry.id, reason: "prev_hash_mismatch" }
  if (entry.hash !== recomputed) return { seq: entry.seq, id: entry.id, reason: "hash_mismatch" }
  return undefined
}

import { type Array as Arr, Context, Effect, Layer, Option } from "effect"
import {
  newIdText,
  type PageRequest,
  type PersistenceUnavailable,
  sha256,
  type TeamId,
  toHex,
  utf8
} from "../shared/index.ts"
import {
  type AuditBreak,
  type AuditDraft,
  type AuditEntry,
  type AuditRecord,
  type AuditVerification,
  auditContent,
  type ChainPosition,
  checkLink,
  GENESIS_HASH
} from "./AuditEntry.ts"

/** Storage of the per-team audit chains: append-only, each team's appends serialised. */
export class AuditLogRepo extends Context.Service<
  AuditLogRepo,
  {
    /**
     * Appends entries in order, each at its team's next `seq`, linked to the entry before and hashed, with the
     * surrounding transaction (on Postgres: as it commits, after its other locks). Stored entries are never changed
     * nor removed.
     */
    readonly append: (drafts: Arr.NonEmptyReadonlyArray<AuditDraft>) => Effect.Effect<void, PersistenceUnavailable>
    /** A team's entries newest first, strictly before the entry with `page.after`'s id, up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<AuditEntry>, PersistenceUnavailable>
    /** A team's entries after `afterSeq`, in chain order, up to `limit`. */
    readonly range: (
      teamId: TeamId,
      afterSeq: number,
      limit: number
    ) => Effect.Effect<ReadonlyArray<AuditEntry>, PersistenceUnavailable>
    /** The `seq` and `hash` of the last entry appended to the team's chain, as its head records it. */
    readonly head: (teamId: TeamId) => Effect.Effect<Option.Option<ChainPosition>, PersistenceUnavailable>
  }
>()("@svc/domain/AuditLogRepo") {}

/** The chain hash of an entry: the hex SHA-256 of the UTF-8 bytes of `prevHash + content`. */
export const chainHash = (prevHash: string, content: string): Effect.Effect<string> =>
  Effect.map(sha256(utf8(prevHash + content)), toHex)

/** A new entry for a team, with a fresh id, saying `record` happened. */
export const auditDraft = (teamId: TeamId, record: Omit<AuditRecord, "id">): Effect.Effect<AuditDraft> =>
  Effect.map(newIdText, (id) => ({ teamId, id, content: auditContent({ id, ...record }) }))

const VERIFY_PAGE = 500

/** The tamper-evident audit log of a team: listed newest first, and verified link by link. */
export class AuditLog extends Context.Service<
  AuditLog,
  {
    readonly list: AuditLogRepo["Service"]["list"]
    /**
     * Recomputes the team's chain from its first entry: each entry must follow the previous `seq`, carry the previous
     * entry's hash, and hash to its own; the last must be the recorded head. Answers the first broken link, if any.
     */
    readonly verify: (teamId: TeamId) => Effect.Effect<AuditVerification, PersistenceUnavailable>
  }
>()("@svc/domain/AuditLog") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* AuditLogRepo

    const verify = Effect.fn("AuditLog.verify")(function* (teamId: TeamId) {
      const head = yield* repo.head(teamId)
      let position: ChainPosition = { seq: 0, hash: GENESIS_HASH }
      let checked = 0
      let broken: AuditBreak | undefined
      while (broken === undefined) {
        const entries = yield* repo.range(teamId, position.seq, VERIFY_PAGE)
        for (const entry of entries) {
          checked += 1
          broken = checkLink(position, entry, yield* chainHash(entry.prevHash, entry.content))
          if (broken !== undefined) break
          position = { seq: entry.seq, hash: entry.hash }
        }
        if (entries.length < VERIFY_PAGE) break
      }
      if (broken === undefined && Option.isSome(head)) {
        if (head.value.seq > position.seq) broken = { seq: position.seq + 1, id: null, reason: "missing_entries" }
        else if (head.value.seq === position.seq && head.value.hash !== position.hash) {
          broken = { seq: position.seq, id: null, reason: "hash_mismatch" }
        }
      }
      const verification: AuditVerification = {
        object: "audit_verification",
        valid: broken === undefined,
        checked,
        head: Option.getOrNull(head),
        firstBroken: broken ?? null
      }
      return verification
    })

    return AuditLog.of({ list: repo.list, verify })
  })
  static readonly layer = Layer.effect(AuditLog, AuditLog.make)
}

import { type AuditEntry, AuditLogRepo, type ChainPosition, chainHash, GENESIS_HASH, type TeamId } from "@svc/domain"
import { Context, Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** Every team's stored audit entries, in chain order: for tests that tamper with them behind the log's back. */
export class AuditEntriesMemory extends Context.Service<
  AuditEntriesMemory,
  Ref.Ref<HashMap.HashMap<TeamId, ReadonlyArray<AuditEntry>>>
>()("@svc/adapters-memory/AuditEntriesMemory") {}

/** AuditLogRepo over the in-memory store: appends are serialised by the store and rolled back with it. */
export const AuditLogRepoMemory = Layer.effectContext(
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const entries = yield* store.table(HashMap.empty<TeamId, ReadonlyArray<AuditEntry>>())
    const heads = yield* store.table(HashMap.empty<TeamId, ChainPosition>())
    const of = (teamId: TeamId) =>
      Effect.map(Ref.get(entries), (map) =>
        Option.getOrElse(HashMap.get(map, teamId), (): ReadonlyArray<AuditEntry> => [])
      )
    return Context.make(
      AuditLogRepo,
      AuditLogRepo.of({
        append: (drafts) =>
          store.atomically(
            Effect.forEach(
              drafts,
              (draft) =>
                Effect.gen(function* () {
                  const head = Option.getOrElse(HashMap.get(yield* Ref.get(heads), draft.teamId), () => ({
                    seq: 0,
                    hash: GENESIS_HASH
                  }))
                  const entry: AuditEntry = {
                    teamId: draft.teamId,
                    seq: head.seq + 1,
                    id: draft.id,
                    content: draft.content,
                    prevHash: head.hash,
                    hash: yield* chainHash(head.hash, draft.content)
                  }
                  yield* Ref.update(heads, HashMap.set(draft.teamId, { seq: entry.seq, hash: entry.hash }))
                  yield* Ref.update(entries, (map) =>
                    HashMap.set(map, draft.teamId, [
                      ...Option.getOrElse(HashMap.get(map, draft.teamId), (): ReadonlyArray<AuditEntry> => []),
                      entry
                    ])
                  )
                }),
              { discard: true }
            )
          ),
        list: (teamId, page) =>
          Effect.map(of(teamId), (all) => {
            const newestFirst = all.toReversed()
            const after = Option.map(page.after, (p) => newestFirst.findIndex((e) => e.id === p.id))
            const start = Option.match(after, { onNone: () => 0, onSome: (i) => (i < 0 ? newestFirst.length : i + 1) })
            return newestFirst.slice(start, start + page.limit + 1)
          }),
        range: (teamId, afterSeq, limit) =>
          Effect.map(of(teamId), (all) => all.filter((e) => e.seq > afterSeq).slice(0, limit)),
        head: (teamId) => Effect.map(Ref.get(heads), HashMap.get(teamId))
      })
    ).pipe(Context.add(AuditEntriesMemory, entries))
  })
)

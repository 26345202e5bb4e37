import { type Document, DocumentsRepo, isAfter, newestFirst } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/** DocumentsRepo over the in-memory store. */
export const DocumentsRepoMemory = Layer.effect(
  DocumentsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, Document>>(new Map())
    const ofTeam = (teamId: string, id: string) => (all: ReadonlyMap<string, Document>) =>
      Option.filter(Option.fromNullishOr(all.get(id)), (d) => d.teamId === teamId)
    return DocumentsRepo.of({
      insert: (document) => store.atomically(Ref.update(rows, (all) => new Map(all).set(document.id, document))),
      find: (teamId, id) => Ref.get(rows).pipe(Effect.map(ofTeam(teamId, id))),
      list: (teamId, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter((d) => d.teamId === teamId && isAfter(d, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      delete: (teamId, id) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            if (Option.isNone(ofTeam(teamId, id)(all))) return [false, all] as const
            const next = new Map(all)
            next.delete(id)
            return [true, next] as const
          })
        )
    })
  })
)

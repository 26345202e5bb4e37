import { type InboxAccountId, InboxAccountsRepo, isAfter, type MailInboxAccount, newestFirst } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** InboxAccountsRepo over the in-memory store; an address is unique within its team, as in Postgres. */
export const MailInboxAccountsRepoMemory = Layer.effect(
  InboxAccountsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<InboxAccountId, MailInboxAccount>())
    return InboxAccountsRepo.of({
      upsert: (account) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const existing = Array.from(HashMap.values(map)).find(
              (a) => a.teamId === account.teamId && a.email === account.email
            )
            const stored: MailInboxAccount =
              existing === undefined ? account : { ...account, id: existing.id, createdAt: existing.createdAt }
            return [stored, HashMap.set(map, stored.id, stored)] as const
          })
        ),
      find: (id) => Ref.get(rows).pipe(Effect.map(HashMap.get(id))),
      list: (teamId, page) =>
        Ref.get(rows).pipe(
          Effect.map((map) =>
            Array.from(HashMap.values(map))
              .filter((a) => a.teamId === teamId && isAfter(a, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      remove: (id) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const current = HashMap.get(map, id)
            return [current, Option.isNone(current) ? map : HashMap.remove(map, id)] as const
          })
        )
    })
  })
)

import { type ChatUserLink, ChatUserLinksRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const keyOf = (workspaceId: string, chatUserId: string, teamId: string) =>
  `${workspaceId}\u0000${chatUserId}\u0000${teamId}`

/** ChatUserLinksRepo over the in-memory store: the first link of a (workspace, chat user, team) stays. */
export const ChatUserLinksRepoMemory = Layer.effect(
  ChatUserLinksRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<string, ChatUserLink>())
    return ChatUserLinksRepo.of({
      find: (workspaceId, chatUserId, teamId) =>
        Ref.get(rows).pipe(Effect.map(HashMap.get(keyOf(workspaceId, chatUserId, teamId)))),
      save: (link) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const key = keyOf(link.workspaceId, link.chatUserId, link.teamId)
            const kept = HashMap.get(map, key)
            return kept._tag === "Some" ? ([kept.value, map] as const) : ([link, HashMap.set(map, key, link)] as const)
          })
        )
    })
  })
)

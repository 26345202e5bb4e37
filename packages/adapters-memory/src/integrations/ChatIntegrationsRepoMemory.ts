import { type ChatIntegration, ChatIntegrationsRepo, type TeamId } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const latestFirst = (a: ChatIntegration, b: ChatIntegration) =>
  b.installedAt.localeCompare(a.installedAt) || b.id.localeCompare(a.id)

/** ChatIntegrationsRepo over the in-memory store, keyed by team: saving replaces the team's integration; a
 * workspace installed by several teams answers the latest installation. */
export const ChatIntegrationsRepoMemory = Layer.effect(
  ChatIntegrationsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<TeamId, ChatIntegration>())
    return ChatIntegrationsRepo.of({
      forTeam: (teamId) => Ref.get(rows).pipe(Effect.map(HashMap.get(teamId))),
      forWorkspace: (workspaceId) =>
        Ref.get(rows).pipe(
          Effect.map((map) =>
            Option.fromNullishOr(
              Array.from(HashMap.values(map))
                .filter((i) => i.workspaceId === workspaceId)
                .toSorted(latestFirst)[0]
            )
          )
        ),
      save: (integration) => store.atomically(Ref.update(rows, HashMap.set(integration.teamId, integration))),
      remove: (teamId) =>
        store.atomically(Ref.modify(rows, (map) => [HashMap.get(map, teamId), HashMap.remove(map, teamId)] as const))
    })
  })
)

import { isAfter, newestFirst, type WebhookEndpoint, WebhookEndpointsRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** WebhookEndpointsRepo over the in-memory store. */
export const WebhookEndpointsRepoMemory = Layer.effect(
  WebhookEndpointsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, WebhookEndpoint>>(new Map())
    const ofTeam = (teamId: string) =>
      Ref.get(rows).pipe(
        Effect.map((all) => [...all.values()].filter((e) => e.teamId === teamId).toSorted((a, b) => newestFirst(a, b)))
      )
    const put = (endpoint: WebhookEndpoint) =>
      store.atomically(Ref.update(rows, (all) => new Map(all).set(endpoint.id, endpoint)))
    return WebhookEndpointsRepo.of({
      insert: put,
      update: put,
      find: (teamId, id) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.filter(Option.fromNullishOr(all.get(id)), (e) => e.teamId === teamId))
        ),
      list: (teamId, page) =>
        ofTeam(teamId).pipe(Effect.map((list) => list.filter((e) => isAfter(e, page.after)).slice(0, page.limit + 1))),
      listEnabled: (teamIds) =>
        Effect.map(
          Effect.forEach(teamIds, (teamId) => ofTeam(teamId)),
          (lists) => lists.flat().filter((e) => e.enabled)
        )
    })
  })
)

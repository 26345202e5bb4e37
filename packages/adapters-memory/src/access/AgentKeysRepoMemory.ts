import type { SpendPolicy, TeamId } from "@svc/domain"
import { AgentKeysRepo, newestFirst, type SpendingKey, type TeamApiKey } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

type Stored =
  | { readonly kind: "spending_key"; readonly key: SpendingKey }
  | { readonly kind: "team_key"; readonly key: TeamApiKey }

/** AgentKeysRepo over the in-memory store. */
export const AgentKeysRepoMemory = Layer.effect(
  AgentKeysRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const keys = yield* store.table(HashMap.empty<string, Stored & { readonly hash: string }>())
    const policies = yield* store.table(HashMap.empty<TeamId, SpendPolicy>())
    const all = Ref.get(keys).pipe(Effect.map((map) => Array.from(HashMap.values(map))))
    return AgentKeysRepo.of({
      insertSpendingKey: (key, hash) =>
        store.atomically(Ref.update(keys, (map) => HashMap.set(map, key.id, { kind: "spending_key", key, hash }))),
      insertTeamKey: (key, hash) =>
        store.atomically(Ref.update(keys, (map) => HashMap.set(map, key.id, { kind: "team_key", key, hash }))),
      findBySecretHash: (hash) =>
        all.pipe(
          Effect.map((rows) =>
            Option.fromNullishOr(rows.find((r) => r.hash === hash && r.key.revokedAt === null)).pipe(
              Option.map(
                (r): Stored => (r.kind === "spending_key" ? { kind: r.kind, key: r.key } : { kind: r.kind, key: r.key })
              )
            )
          )
        ),
      listSpendingKeys: (teamId) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .flatMap((r) => (r.kind === "spending_key" && r.key.teamId === teamId ? [r.key] : []))
              .toSorted(newestFirst)
          )
        ),
      listTeamKeys: (teamId) =>
        all.pipe(
          Effect.map((rows) =>
            rows.flatMap((r) => (r.kind === "team_key" && r.key.teamId === teamId ? [r.key] : [])).toSorted(newestFirst)
          )
        ),
      updatePolicy: (teamId, id, policy) =>
        store.atomically(
          Ref.modify(keys, (map) => {
            const row = HashMap.get(map, id)
            if (
              Option.isNone(row) ||
              row.value.kind !== "spending_key" ||
              row.value.key.teamId !== teamId ||
              row.value.key.revokedAt !== null
            ) {
              return [Option.none<SpendingKey>(), map] as const
            }
            const key = { ...row.value.key, policy }
            return [Option.some(key), HashMap.set(map, id, { ...row.value, key })] as const
          })
        ),
      revoke: (teamId, kind, id, at) =>
        store.atomically(
          Ref.modify(keys, (map) => {
            const row = HashMap.get(map, id)
            if (
              Option.isNone(row) ||
              row.value.kind !== kind ||
              row.value.key.teamId !== teamId ||
              row.value.key.revokedAt !== null
            ) {
              return [false, map] as const
            }
            const next = { ...row.value, key: { ...row.value.key, revokedAt: at } } as Stored & {
              readonly hash: string
            }
            return [true, HashMap.set(map, id, next)] as const
          })
        ),
      teamPolicy: (teamId) =>
        Ref.get(policies).pipe(Effect.map((map) => Option.getOrElse(HashMap.get(map, teamId), () => ({})))),
      setTeamPolicy: (teamId, policy) => store.atomically(Ref.update(policies, HashMap.set(teamId, policy)))
    })
  })
)

import type { PolicyVersion, SpendPolicy, TeamId } from "@svc/domain"
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
    const policies = yield* store.table(
      HashMap.empty<TeamId, { readonly policy: SpendPolicy; readonly version: number }>()
    )
    const versions = yield* store.table<ReadonlyArray<PolicyVersion>>([])
    const all = Ref.get(keys).pipe(Effect.map((map) => Array.from(HashMap.values(map))))
    const addVersion = (version: PolicyVersion) => Ref.update(versions, (list) => [...list, version])
    return AgentKeysRepo.of({
      insertSpendingKey: (key, hash, version) =>
        store.atomically(
          Effect.andThen(
            Ref.update(keys, (map) => HashMap.set(map, key.id, { kind: "spending_key", key, hash })),
            addVersion(version)
          )
        ),
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
      updatePolicy: (teamId, id, policy, change) =>
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
            const key = { ...row.value.key, policy, policyVersion: row.value.key.policyVersion + 1 }
            return [Option.some(key), HashMap.set(map, id, { ...row.value, key })] as const
          }).pipe(
            Effect.flatMap((updated) =>
              Effect.transposeOption(
                Option.map(updated, (key) => {
                  const version: PolicyVersion = {
                    id: change.versionId,
                    teamId: key.teamId,
                    subject: "spending_key",
                    spendingKeyId: key.id,
                    version: key.policyVersion,
                    policy,
                    createdBy: change.by,
                    createdAt: change.at
                  }
                  return Effect.as(addVersion(version), { key, version })
                })
              )
            )
          )
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
        Ref.get(policies).pipe(
          Effect.map((map) =>
            Option.match(HashMap.get(map, teamId), { onNone: () => ({}), onSome: (stored) => stored.policy })
          )
        ),
      versionedTeamPolicy: (teamId) =>
        Ref.get(policies).pipe(
          Effect.map((map) => Option.getOrElse(HashMap.get(map, teamId), () => ({ policy: {}, version: null })))
        ),
      setTeamPolicy: (teamId, policy, change) =>
        store.atomically(
          Effect.gen(function* () {
            const before = HashMap.get(yield* Ref.get(policies), teamId)
            const number = Option.match(before, { onNone: () => 1, onSome: (stored) => stored.version + 1 })
            yield* Ref.update(policies, HashMap.set(teamId, { policy, version: number }))
            const version: PolicyVersion = {
              id: change.versionId,
              teamId,
              subject: "team",
              spendingKeyId: null,
              version: number,
              policy,
              createdBy: change.by,
              createdAt: change.at
            }
            yield* addVersion(version)
            return version
          })
        ),
      policyVersions: (teamId, spendingKeyId) =>
        Ref.get(versions).pipe(
          Effect.map((list) =>
            list
              .filter((v) => v.teamId === teamId && (v.spendingKeyId === spendingKeyId || v.subject === "team"))
              .toReversed()
          )
        )
    })
  })
)

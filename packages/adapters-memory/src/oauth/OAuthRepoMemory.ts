import {
  type AuthorizationCode,
  isAfter,
  newestFirst,
  type OAuthApplication,
  OAuthRepo,
  type OAuthToken,
  type TeamId
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** OAuthRepo over the in-memory store. */
export const OAuthRepoMemory = Layer.effect(
  OAuthRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const apps = yield* store.table(HashMap.empty<string, OAuthApplication>())
    const codes = yield* store.table(HashMap.empty<string, AuthorizationCode>())
    const tokens = yield* store.table(HashMap.empty<string, OAuthToken>())

    const patch = (id: string, f: (app: OAuthApplication) => OAuthApplication | undefined) =>
      store.atomically(
        Ref.modify(
          apps,
          (map): readonly [Option.Option<OAuthApplication>, HashMap.HashMap<string, OAuthApplication>] => {
            const app = HashMap.get(map, id)
            const next = Option.isSome(app) ? f(app.value) : undefined
            return next === undefined ? [Option.none(), map] : [Option.some(next), HashMap.set(map, id, next)]
          }
        )
      )

    return OAuthRepo.of({
      insertApplication: (app) => store.atomically(Ref.update(apps, HashMap.set(app.id, app))),
      findApplicationByClientId: (clientId) =>
        Ref.get(apps).pipe(
          Effect.map((map) =>
            Option.fromNullishOr(Array.from(HashMap.values(map)).find((a) => a.clientId === clientId))
          )
        ),
      findApplication: (id) => Ref.get(apps).pipe(Effect.map(HashMap.get(id))),
      claimApplication: (id, teamId) =>
        store.atomically(
          Ref.modify(apps, (map): readonly [TeamId | null, HashMap.HashMap<string, OAuthApplication>] => {
            const app = HashMap.get(map, id)
            if (Option.isNone(app)) return [null, map]
            if (app.value.teamId !== null) return [app.value.teamId, map]
            return [teamId, HashMap.set(map, id, { ...app.value, teamId })]
          })
        ),
      listApplications: (teamId, page) =>
        Ref.get(apps).pipe(
          Effect.map((map) =>
            Array.from(HashMap.values(map))
              .filter((a) => a.teamId === teamId && isAfter(a, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      updateApplication: (id, fields) => patch(id, (app) => ({ ...app, ...fields })),
      replaceClientSecret: (id, clientSecretHash) =>
        patch(id, (app) => (app.clientSecretHash === null ? undefined : { ...app, clientSecretHash })),
      transitionApplication: (id, from, to) =>
        patch(id, (app) => (app.status === from ? { ...app, status: to } : undefined)),
      insertCode: (code) => store.atomically(Ref.update(codes, HashMap.set(code.codeHash, code))),
      findCode: (codeHash) => Ref.get(codes).pipe(Effect.map(HashMap.get(codeHash))),
      consumeCode: (codeHash, now) =>
        store.atomically(
          Ref.modify(codes, (map) => {
            const code = HashMap.get(map, codeHash)
            if (Option.isNone(code) || code.value.usedAt !== null) return [false, map] as const
            return [true, HashMap.set(map, codeHash, { ...code.value, usedAt: now })] as const
          })
        ),
      insertToken: (token) => store.atomically(Ref.update(tokens, HashMap.set(token.tokenHash, token))),
      findToken: (tokenHash) => Ref.get(tokens).pipe(Effect.map(HashMap.get(tokenHash))),
      rotateRefreshToken: (id, now) =>
        store.atomically(
          Ref.modify(tokens, (map) => {
            const token = Array.from(HashMap.values(map)).find((t) => t.id === id)
            if (token === undefined || token.kind !== "refresh" || token.rotatedAt !== null || token.revokedAt !== null)
              return [false, map] as const
            return [true, HashMap.set(map, token.tokenHash, { ...token, rotatedAt: now })] as const
          })
        ),
      revokeToken: (id, now) =>
        store.atomically(
          Ref.update(
            tokens,
            HashMap.map((t) => (t.id === id && t.revokedAt === null ? { ...t, revokedAt: now } : t))
          )
        ),
      revokeGrant: (grantId, now) =>
        store.atomically(
          Ref.update(
            tokens,
            HashMap.map((t) => (t.grantId === grantId && t.revokedAt === null ? { ...t, revokedAt: now } : t))
          )
        ),
      purgeExpiredBefore: (cutoff) =>
        store.atomically(
          Effect.gen(function* () {
            const purged = <V extends { readonly expiresAt: string }>(map: HashMap.HashMap<string, V>) => {
              const kept = HashMap.filter(map, (row) => row.expiresAt >= cutoff)
              return [HashMap.size(map) - HashMap.size(kept), kept] as const
            }
            return (yield* Ref.modify(codes, purged)) + (yield* Ref.modify(tokens, purged))
          })
        )
    })
  })
)

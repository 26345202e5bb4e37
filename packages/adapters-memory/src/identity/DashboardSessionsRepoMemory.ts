import {
  type DashboardSession,
  DashboardSessionsRepo,
  type QueuedLinkRequest,
  roomForLink,
  type SignInLink
} from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** DashboardSessionsRepo over the in-memory store. */
export const DashboardSessionsRepoMemory = Layer.effect(
  DashboardSessionsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const links = yield* store.table<ReadonlyMap<string, SignInLink>>(new Map())
    const sessions = yield* store.table<ReadonlyMap<string, DashboardSession>>(new Map())
    const requests = yield* store.table<ReadonlyArray<QueuedLinkRequest>>([])
    return DashboardSessionsRepo.of({
      enqueueLinkRequest: (request) => store.atomically(Ref.update(requests, (all) => [...all, request])),
      takeLinkRequest: store.atomically(
        Ref.modify(requests, ([first, ...rest]) =>
          first === undefined ? [Option.none(), []] : [Option.some(first), rest]
        )
      ),
      insertLink: (link, limits) =>
        store.atomically(
          Ref.modify(links, (all) => {
            const recent = [...all.values()].filter(
              (l) => l.userId === link.userId && Date.parse(l.createdAt) >= Date.parse(limits.since)
            )
            const fromClient = recent.filter((l) => l.requestedFrom === link.requestedFrom).length
            return roomForLink({ fromClient, total: recent.length }, limits)
              ? ([true, new Map(all).set(link.tokenHash, link)] as const)
              : ([false, all] as const)
          })
        ),
      consumeLink: (tokenHash, at) =>
        store.atomically(
          Ref.modify(links, (all) => {
            const link = all.get(tokenHash)
            if (link === undefined || link.consumedAt !== null || Date.parse(link.expiresAt) <= Date.parse(at)) {
              return [Option.none(), all] as const
            }
            return [Option.some(link.userId), new Map(all).set(tokenHash, { ...link, consumedAt: at })] as const
          })
        ),
      insertSession: (session) =>
        store.atomically(Ref.update(sessions, (all) => new Map(all).set(session.id, session))),
      findSession: (tokenHash) =>
        Ref.get(sessions).pipe(
          Effect.map((all) => Option.fromNullishOr([...all.values()].find((s) => s.tokenHash === tokenHash)))
        ),
      listPersonalTokens: (userId, at) =>
        Ref.get(sessions).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter(
                (s) =>
                  s.userId === userId &&
                  s.name !== null &&
                  s.revokedAt === null &&
                  Date.parse(s.expiresAt) > Date.parse(at)
              )
              .toSorted((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
          )
        ),
      revokeSession: (id, at) =>
        store.atomically(
          Ref.modify(sessions, (all) => {
            const session = all.get(id)
            if (session === undefined || session.revokedAt !== null) return [false, all] as const
            return [true, new Map(all).set(id, { ...session, revokedAt: at })] as const
          })
        ),
      purgeEndedBefore: (cutoff) =>
        store.atomically(
          Effect.gen(function* () {
            const before = (iso: string | null) => iso !== null && Date.parse(iso) < Date.parse(cutoff)
            const keptLinks = [...(yield* Ref.get(links))].filter(([, l]) => !before(l.expiresAt))
            const keptSessions = [...(yield* Ref.get(sessions))].filter(
              ([, s]) => !before(s.expiresAt) && !before(s.revokedAt)
            )
            const removed =
              (yield* Ref.get(links)).size - keptLinks.length + (yield* Ref.get(sessions)).size - keptSessions.length
            yield* Ref.set(links, new Map(keptLinks))
            yield* Ref.set(sessions, new Map(keptSessions))
            return removed
          })
        )
    })
  })
)

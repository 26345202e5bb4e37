import { newestFirst, sameEmail, type TeamInvite, TeamInvitesRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** TeamInvitesRepo over the in-memory store. */
export const TeamInvitesRepoMemory = Layer.effect(
  TeamInvitesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, TeamInvite>>(new Map())
    return TeamInvitesRepo.of({
      insert: (invite) => store.atomically(Ref.update(rows, (all) => new Map(all).set(invite.id, invite))),
      findByTokenHash: (hash) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.fromNullishOr([...all.values()].find((i) => i.tokenHash === hash)))
        ),
      hasPendingFor: (email, at) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()].some(
              (i) => sameEmail(i.email, email) && i.acceptedAt === null && Date.parse(i.expiresAt) > Date.parse(at)
            )
          )
        ),
      listForTeam: (teamId) =>
        Ref.get(rows).pipe(
          Effect.map((all) => [...all.values()].filter((i) => i.teamId === teamId).toSorted(newestFirst))
        ),
      markAccepted: (id, userId, at) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const invite = all.get(id)
            if (invite === undefined || invite.acceptedAt !== null || Date.parse(invite.expiresAt) <= Date.parse(at)) {
              return [false, all] as const
            }
            return [true, new Map(all).set(id, { ...invite, acceptedAt: at, acceptedBy: userId })] as const
          })
        )
    })
  })
)

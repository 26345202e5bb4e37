import { Context, Effect, type Option } from "effect"
import { nowIso, type PersistenceUnavailable, randomUnambiguous, type TeamId } from "../shared/index.ts"
import { HANDLE_SUFFIX_LENGTH, type ReceiveHandle, slugOf } from "./ReceiveHandle.ts"

/** Storage of teams' receive handles: one per team, unique across teams, never changed. */
export class ReceiveHandlesRepo extends Context.Service<
  ReceiveHandlesRepo,
  {
    /** Stores the team's handle; false, storing nothing, when the handle is taken or the team has one already. */
    readonly insert: (handle: ReceiveHandle) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly findByTeam: (teamId: TeamId) => Effect.Effect<Option.Option<ReceiveHandle>, PersistenceUnavailable>
    readonly findByHandle: (handle: string) => Effect.Effect<Option.Option<ReceiveHandle>, PersistenceUnavailable>
  }
>()("@svc/domain/ReceiveHandlesRepo") {}

/** How many handles a team's creation tries before it gives up (each collides with odds of one in 31^4 per taken slug). */
const HANDLE_ATTEMPTS = 20

/**
 * Gives a new team its receive handle (the slug of its name and four random characters), drawing again while the
 * handle is taken; run it in the transaction that creates the team.
 */
export const openReceiveHandle = (
  repo: ReceiveHandlesRepo["Service"],
  team: { readonly id: TeamId; readonly name: string }
): Effect.Effect<ReceiveHandle, PersistenceUnavailable> =>
  Effect.gen(function* () {
    const slug = slugOf(team.name)
    const createdAt = yield* nowIso
    for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
      const handle: ReceiveHandle = {
        teamId: team.id,
        teamName: team.name,
        handle: `${slug}-${yield* randomUnambiguous(HANDLE_SUFFIX_LENGTH)}`,
        createdAt
      }
      if (yield* repo.insert(handle)) return handle
    }
    return yield* Effect.die(new Error(`no free receive handle for ${slug} after ${HANDLE_ATTEMPTS} attempts`))
  })

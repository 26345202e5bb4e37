import { Context, Effect, Layer, Option } from "effect"
import { type Mode, nowIso, type PersistenceUnavailable, randomBytes, type TeamId } from "../shared/index.ts"
import {
  HANDLE_SUFFIX_LENGTH,
  parseReceiveAddress,
  type ReceiveAddress,
  ReceiveAddressNotFound,
  type ReceiveHandle,
  ReceiveHandleMissing,
  receiveAddressIn,
  slugOf
} from "./ReceiveAddress.ts"
import { ReceiveHandlesRepo } from "./TransfersRepos.ts"
import { unambiguousCharsOf } from "./UnambiguousCodes.ts"

/** How many handles a team's creation tries before it gives up (each collides with odds of one in 31^4 per taken slug). */
const HANDLE_ATTEMPTS = 20

/** `length` characters of the unambiguous alphabet, drawn from the `SecureRandom` in context without bias. */
export const randomUnambiguous = (length: number): Effect.Effect<string> =>
  Effect.gen(function* () {
    let out = ""
    while (out.length < length) {
      out += unambiguousCharsOf(yield* randomBytes(length * 2), length - out.length)
    }
    return out
  })

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

/** Teams' receive addresses: one per team and mode, made from the team's handle; each mode sees only its own. */
export class ReceiveAddresses extends Context.Service<
  ReceiveAddresses,
  {
    /** The team's own address in `mode`. */
    readonly own: (
      teamId: TeamId,
      mode: Mode
    ) => Effect.Effect<ReceiveAddress, ReceiveHandleMissing | PersistenceUnavailable>
    /** The team receiving at `address`, seen from `mode`: not found when unknown, malformed or of the other mode. */
    readonly resolve: (
      mode: Mode,
      address: string
    ) => Effect.Effect<ReceiveAddress, ReceiveAddressNotFound | PersistenceUnavailable>
  }
>()("@svc/domain/ReceiveAddresses") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* ReceiveHandlesRepo

    const own = Effect.fn("ReceiveAddresses.own")(function* (teamId: TeamId, mode: Mode) {
      const found = yield* repo.findByTeam(teamId)
      if (Option.isNone(found)) return yield* new ReceiveHandleMissing({ teamId })
      return receiveAddressIn(found.value, mode)
    })

    const resolve = Effect.fn("ReceiveAddresses.resolve")(function* (mode: Mode, address: string) {
      const parsed = parseReceiveAddress(address)
      if (Option.isNone(parsed) || parsed.value.mode !== mode) return yield* new ReceiveAddressNotFound({ address })
      const found = yield* repo.findByHandle(parsed.value.handle)
      if (Option.isNone(found)) return yield* new ReceiveAddressNotFound({ address })
      return receiveAddressIn(found.value, mode)
    })

    return ReceiveAddresses.of({ own, resolve })
  })
  static readonly layer = Layer.effect(ReceiveAddresses, ReceiveAddresses.make)
}

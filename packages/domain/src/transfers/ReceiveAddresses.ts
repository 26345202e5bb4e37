import { Context, Effect, Layer, Option } from "effect"
import { ReceiveHandleMissing, ReceiveHandlesRepo } from "../identity/index.ts"
import type { Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import { parseReceiveAddress, type ReceiveAddress, ReceiveAddressNotFound, receiveAddressIn } from "./ReceiveAddress.ts"

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

import { Context, Effect, Layer, Option, Result, Schema } from "effect"
import { AuditLogRepo, auditDraft } from "../audit/index.ts"
import type { Role } from "../identity/model.ts"
import {
  type Mode,
  newId,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  type TeamId,
  Transactor,
  type UserId
} from "../shared/index.ts"
import { validateAddress } from "./Address.ts"
import { CryptoDestinationsRepo } from "./CryptoRepos.ts"
import {
  type CryptoDestination,
  CryptoDestinationId,
  CryptoDestinationInvalid,
  CryptoDestinationNotFound
} from "./Destination.ts"
import { type CryptoAsset, type CryptoNetwork, NETWORK_ASSETS, networkCarries } from "./Network.ts"

/** The longest name a destination may have, in characters. */
export const CRYPTO_DESTINATION_NAME_MAX_LENGTH = 200

/** The longest address text looked at, in characters (EVM: 42, Solana: at most 44). */
const ADDRESS_MAX_LENGTH = 100

/** Only the team's owners and admins change its allow-list. */
export class CryptoDestinationForbidden extends Schema.TaggedError<CryptoDestinationForbidden>()(
  "CryptoDestinationForbidden",
  { action: Schema.String }
) {}

/** A person of the team changing its allow-list, with their role in it. */
export interface CryptoDestinationActor {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly role: Role
}

/** A new allow-list entry as asked for; `mode` defaults to `live`. */
export interface AddCryptoDestination {
  readonly name: string
  readonly network: CryptoNetwork
  readonly asset: CryptoAsset
  readonly address: string
  readonly mode?: Mode | undefined
}

const mayChangeAllowList = (role: Role): boolean => role === "owner" || role === "admin"

/**
 * A team's allow-list of payout destinations: added and removed by owners and admins (each recorded in the audit log in
 * the same transaction), never edited; a removed destination, or one of the other mode, is not found.
 */
export class CryptoDestinations extends Context.Service<
  CryptoDestinations,
  {
    /** Validates the address for its network (stored in its canonical form) and adds the destination. */
    readonly add: (
      actor: CryptoDestinationActor,
      input: AddCryptoDestination
    ) => Effect.Effect<
      CryptoDestination,
      CryptoDestinationInvalid | CryptoDestinationForbidden | PersistenceUnavailable
    >
    /** The team's destinations of `mode` not removed, newest first, up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      mode: Mode,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<CryptoDestination>, PersistenceUnavailable>
    /** The team's destination, not removed, of `mode` when given (else of either mode). */
    readonly get: (
      teamId: TeamId,
      id: string,
      mode?: Mode
    ) => Effect.Effect<CryptoDestination, CryptoDestinationNotFound | PersistenceUnavailable>
    /** Removes the destination for good (it stays stored, marked removed); not found when already removed. */
    readonly remove: (
      actor: CryptoDestinationActor,
      id: string
    ) => Effect.Effect<
      CryptoDestination,
      CryptoDestinationNotFound | CryptoDestinationForbidden | PersistenceUnavailable
    >
  }
>()("@svc/domain/CryptoDestinations") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CryptoDestinationsRepo
    const audit = yield* AuditLogRepo
    const transactor = yield* Transactor

    const invalid = (field: string, message: string) => new CryptoDestinationInvalid({ field, message })

    const add = Effect.fn("CryptoDestinations.add")(function* (
      actor: CryptoDestinationActor,
      input: AddCryptoDestination
    ) {
      if (!mayChangeAllowList(actor.role)) {
        return yield* new CryptoDestinationForbidden({ action: "add a crypto destination" })
      }
      const name = input.name.trim()
      if (name.length === 0 || name.length > CRYPTO_DESTINATION_NAME_MAX_LENGTH) {
        return yield* invalid("name", `expected 1 to ${CRYPTO_DESTINATION_NAME_MAX_LENGTH} characters`)
      }
      if (!networkCarries(input.network, input.asset)) {
        return yield* invalid(
          "asset",
          `${input.network} carries ${NETWORK_ASSETS[input.network].join(", ")}, not ${input.asset}`
        )
      }
      if (input.address.length > ADDRESS_MAX_LENGTH) {
        return yield* invalid("address", `expected at most ${ADDRESS_MAX_LENGTH} characters`)
      }
      const address = validateAddress(input.network, input.address)
      if (Result.isFailure(address)) return yield* invalid("address", address.failure)
      const destination: CryptoDestination = {
        id: yield* newId(CryptoDestinationId),
        teamId: actor.teamId,
        mode: input.mode ?? "live",
        name,
        network: input.network,
        asset: input.asset,
        address: address.success,
        createdBy: actor.userId,
        createdAt: yield* nowIso,
        removedAt: null
      }
      const entry = yield* auditDraft(actor.teamId, {
        type: "crypto_destination.created",
        mode: destination.mode,
        at: destination.createdAt,
        data: {
          id: destination.id,
          name: destination.name,
          network: destination.network,
          asset: destination.asset,
          address: destination.address,
          createdBy: destination.createdBy
        }
      })
      yield* transactor.withTransaction(Effect.andThen(repo.insert(destination), audit.append([entry])))
      return destination
    })

    const list = Effect.fn("CryptoDestinations.list")(function* (teamId: TeamId, mode: Mode, page: PageRequest) {
      return yield* repo.list(teamId, mode, page)
    })

    /** The team's destination not removed, of `mode` when given; none otherwise (also for a malformed id). */
    const current = (teamId: TeamId, id: string, mode: Mode | undefined) =>
      Schema.is(CryptoDestinationId)(id)
        ? Effect.map(
            repo.find(id),
            Option.filter((d) => d.teamId === teamId && d.removedAt === null && (mode === undefined || d.mode === mode))
          )
        : Effect.succeed(Option.none<CryptoDestination>())

    const get = Effect.fn("CryptoDestinations.get")(function* (teamId: TeamId, id: string, mode?: Mode) {
      const found = yield* current(teamId, id, mode)
      if (Option.isNone(found)) return yield* new CryptoDestinationNotFound({ id })
      return found.value
    })

    const remove = Effect.fn("CryptoDestinations.remove")(function* (actor: CryptoDestinationActor, id: string) {
      if (!mayChangeAllowList(actor.role)) {
        return yield* new CryptoDestinationForbidden({ action: "remove a crypto destination" })
      }
      const found = yield* current(actor.teamId, id, undefined)
      if (Option.isNone(found)) return yield* new CryptoDestinationNotFound({ id })
      const at = yield* nowIso
      const entry = yield* auditDraft(actor.teamId, {
        type: "crypto_destination.removed",
        mode: found.value.mode,
        at,
        data: { id: found.value.id, address: found.value.address, removedBy: actor.userId }
      })
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const removed = yield* repo.remove(found.value.id, at)
          if (Option.isNone(removed)) return yield* new CryptoDestinationNotFound({ id })
          yield* audit.append([entry])
          return removed.value
        })
      )
    })

    return CryptoDestinations.of({ add, list, get, remove })
  })
  static readonly layer = Layer.effect(CryptoDestinations, CryptoDestinations.make)
}

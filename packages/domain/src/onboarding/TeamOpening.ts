import { Context, Effect, Layer } from "effect"
import { CategoriesRepo, seedStandardCategories } from "../finance/transactions/index.ts"
import { openReceiveHandle, ReceiveHandlesRepo, type SessionIdentity, TeamsRepo, UsersRepo } from "../identity/index.ts"
import type { Team } from "../identity/model.ts"
import { Ledger } from "../ledger/index.ts"
import { newId, nowIso, Transactor } from "../shared/index.ts"
import { type PersistenceUnavailable, TeamId } from "../shared/model.ts"

/** Input to open a team. */
export interface CreateTeam {
  readonly name: string
  readonly baseCurrency?: string | undefined
}

/** The spend accounts every new team opens, one per mode. */
const OPENING_ACCOUNTS = [
  { mode: "live", name: "Live spend account" },
  { mode: "test", name: "Test spend account" }
] as const

/**
 * Opening a team: the workflow over identity, the ledger and business finance that gives a new team everything it
 * starts with, so none of those contexts reaches into another to do it.
 */
export class TeamOpening extends Context.Service<
  TeamOpening,
  {
    /**
     * Creates the team with the caller as owner and current team; opens live and test spend accounts in its base
     * currency, gives it its receive handle (its address in each mode) and the standard transaction categories, all in one
     * transaction.
     */
    readonly open: (owner: SessionIdentity, input: CreateTeam) => Effect.Effect<Team, PersistenceUnavailable>
  }
>()("@svc/domain/TeamOpening") {
  static readonly make = Effect.gen(function* () {
    const teams = yield* TeamsRepo
    const users = yield* UsersRepo
    const ledger = yield* Ledger
    const transactor = yield* Transactor
    const handles = yield* ReceiveHandlesRepo
    const categories = yield* CategoriesRepo

    const open = Effect.fn("TeamOpening.open")(function* (owner: SessionIdentity, input: CreateTeam) {
      const team: Team = {
        id: yield* newId(TeamId),
        name: input.name,
        baseCurrency: input.baseCurrency ?? "USD",
        createdAt: yield* nowIso
      }
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          yield* users.ensure(owner)
          yield* teams.insert(team)
          yield* teams.addMember(team.id, owner.id, "owner")
          for (const opening of OPENING_ACCOUNTS) {
            yield* ledger.openTeamAccounts({
              teamId: team.id,
              mode: opening.mode,
              name: opening.name,
              currency: team.baseCurrency
            })
          }
          yield* openReceiveHandle(handles, team)
          yield* seedStandardCategories(categories, team.id)
          yield* users.setCurrentTeam(owner.id, team.id)
        })
      )
      return team
    })

    return TeamOpening.of({ open })
  })
  static readonly layer = Layer.effect(TeamOpening, TeamOpening.make)
}

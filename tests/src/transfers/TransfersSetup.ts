import {
  type EventOutbox,
  Ledger,
  PaymentCodes,
  type PaymentCodesRepo,
  ReceiveAddresses,
  type Team,
  TeamId,
  TeamOpening,
  Teams,
  TeamsRepo,
  type UserId,
  Users
} from "@svc/domain"
import { Effect, Layer } from "effect"
import type { LedgerPorts } from "../ledger/LedgerSetup.ts"

/** The ports the transfers contracts run on. */
export type TransfersPorts = LedgerPorts<EventOutbox | PaymentCodesRepo>

/** Teams, receive addresses and payment codes over whichever ports the caller provides. */
export const transfersOver = <E>(ports: Layer.Layer<TransfersPorts, E>) =>
  Layer.mergeAll(Users.layer, Teams.layer, TeamOpening.layer, ReceiveAddresses.layer, PaymentCodes.layer).pipe(
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A team created the way users create one (with its handle), owned by a new user. */
export const createTeam = (name: string) =>
  TeamOpening.use((opening) =>
    opening.open({ id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }, { name })
  )

/** A bare team row (no handle), as teams created before receive addresses existed. */
export const bareTeam = (name: string) =>
  Effect.gen(function* () {
    const team: Team = {
      id: TeamId.make(crypto.randomUUID()),
      name,
      baseCurrency: "USD",
      createdAt: "2026-11-01T00:00:00.000Z"
    }
    yield* TeamsRepo.use((repo) => repo.insert(team))
    return team
  })

import type { Ports } from "@svc/api"
import {
  AgentKeys,
  AuditLog,
  auditEntryView,
  CryptoDestinations,
  CryptoQuotes,
  Ledger,
  type Mode,
  TeamOpening,
  Teams,
  type UserId,
  Users
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"

/** The crypto services, with the teams, keys and audit log they build on, over whichever ports the caller provides. */
export const cryptoOver = <E, R>(ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(Users.layer, Teams.layer, TeamOpening.layer, AuditLog.layer, CryptoQuotes.layer).pipe(
    Layer.provideMerge(CryptoDestinations.layer),
    Layer.provideMerge(AgentKeys.layer),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A team made the way users make one, its owner as the allow-list's actor, and an agent of each mode. */
export const cryptoTeam = (name = "Acme") =>
  Effect.gen(function* () {
    const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
    const team = yield* TeamOpening.use((opening) => opening.open(owner, { name }))
    const agent = (mode: Mode) =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const { secret } = yield* keys.issueSpendingKey({
          teamId: team.id,
          createdBy: owner.id,
          name: `${mode} agent`,
          mode,
          policy: {}
        })
        return Option.getOrThrow(yield* keys.authenticate(secret))
      })
    return {
      team,
      owner: { teamId: team.id, userId: owner.id, role: "owner" as const },
      testAgent: yield* agent("test"),
      liveAgent: yield* agent("live")
    }
  })

/** The types and data of the team's audit entries, oldest first. */
export const auditOf = (teamId: Parameters<AuditLog["Service"]["list"]>[0]) =>
  Effect.map(
    AuditLog.use((log) => log.list(teamId, { after: Option.none(), limit: 100 })),
    (entries) => entries.map(auditEntryView).toReversed()
  )

/** Addresses valid on their networks. */
export const ADDRESSES = {
  evm: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  otherEvm: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
} as const

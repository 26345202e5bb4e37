import {
  type AgentPrincipal,
  type CreateTransfer,
  Ledger,
  PaymentCodes,
  type PaymentCodesRepo,
  ReceiveAddresses,
  Transfers,
  type TransfersRepo
} from "@svc/domain"
import { Effect, Layer } from "effect"
import { domainOver, fundedAgent, type Ports } from "../spend/SpendSetup.ts"

/** The ports book transfers run on. */
export type TransferPorts = Ports | PaymentCodesRepo | TransfersRepo

/** Transfers, with the spend core and the addresses and codes they build on, over the ports given. */
export const transfersDomainOver = <E>(ports: Layer.Layer<TransferPorts, E>) =>
  Transfers.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(ReceiveAddresses.layer, PaymentCodes.layer)),
    Layer.provideMerge(domainOver(ports)),
    // The same layer as inside `domainOver` (built once): it also holds the codes' and the transfers' ports.
    Layer.provideMerge(ports)
  )

/** A funded sender and an unfunded recipient, in two teams of test mode, with the recipient's address. */
export const twoTeams = (funds: number, policy = {}) =>
  Effect.gen(function* () {
    const sender = yield* fundedAgent({ funds, policy })
    const recipient = yield* fundedAgent({ funds: 0 })
    const address = (yield* ReceiveAddresses.use((a) => a.own(recipient.team.id, "test"))).address
    return { sender, recipient, address }
  })

export const send = (agent: AgentPrincipal, input: Partial<CreateTransfer> & Pick<CreateTransfer, "to">) =>
  Transfers.use((t) => t.create(agent, { amount: 1_000, currency: "USD", ...input }))

export const balanceOf = (agent: AgentPrincipal) =>
  Effect.map(
    Ledger.use((l) => l.account(agent.teamId, agent.accountId!)),
    (a) => a.balance
  )

import {
  type AgentPrincipal,
  type CreateTransfer,
  DEFAULT_ACCEPTANCE_TTL_SECONDS,
  isoOfMillis,
  Ledger,
  newId,
  PaymentCodes,
  type PaymentCodesRepo,
  ReceiveAddresses,
  SpendRequestsRepo,
  type Transfer,
  TransferId,
  Transfers,
  TransfersRepo,
  usageWindows
} from "@svc/domain"
import { Clock, Effect, Layer } from "effect"
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

/**
 * A transfer with `code`, stored as creation stored one before open transfers held their code: pending acceptance, its
 * amount held on the sender and counted in its budgets, the code left as it is (another transfer may hold or have used
 * it). Its parties, amount and decision are those of `like`, a transfer between the same teams.
 */
export const madeBeforeCodesWereHeld = (like: Transfer, code: string) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const id = yield* newId(TransferId)
    const now = yield* Clock.currentTimeMillis
    const settlement = yield* ledger.settlementAccount(like.senderTeamId, like.mode, like.currency)
    const hold = yield* ledger.hold({
      teamId: like.senderTeamId,
      mode: like.mode,
      code: "transfer",
      reference: id,
      debitAccountId: like.senderAccountId,
      creditAccountId: settlement.id,
      amount: like.amount
    })
    yield* SpendRequestsRepo.use((r) =>
      // Transfers count in their budgets under the category `book_transfer`.
      r.recordUsage(like.spendingKeyId, { windows: usageWindows(now, "book_transfer"), amount: like.amount, at: now })
    )
    const t: Transfer = {
      ...like,
      id,
      status: "pending_acceptance",
      paymentCode: code,
      approval: null,
      holdTransactionId: hold.id,
      expiresAt: isoOfMillis(now + DEFAULT_ACCEPTANCE_TTL_SECONDS * 1000),
      createdAt: isoOfMillis(now),
      updatedAt: isoOfMillis(now)
    }
    yield* TransfersRepo.use((r) => r.insert(t))
    return t
  })

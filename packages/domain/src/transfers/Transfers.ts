import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { DecidedMeanwhile } from "../approvals/index.ts"
import { type GovernedOperations, governedLifecycle } from "../governance/index.ts"
import type { ReceiveHandleMissing } from "../identity/model.ts"
import { Ledger, LedgerRepo, type SettlementAccountMissing } from "../ledger/index.ts"
import { domainEvents, EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  type Mode,
  millisOfIso,
  nowIso,
  type PersistenceUnavailable,
  PositiveAmountMinor,
  periodicJob,
  type TeamId,
  Transactor
} from "../shared/index.ts"
import { normalizeMerchantName, SpendFreezesRepo, SpendRequestsRepo } from "../spend/index.ts"
import { type PaymentCodeNotFound, PaymentCodeUnusable, paymentCodeStatus } from "./PaymentCode.ts"
import { PaymentCodes } from "./PaymentCodes.ts"
import type { ReceiveAddressNotFound } from "./ReceiveAddress.ts"
import { ReceiveAddresses } from "./ReceiveAddresses.ts"
import {
  directionOf,
  TRANSFER_MEMO_MAX_LENGTH,
  type Transfer,
  type TransferEventType,
  TransferId,
  TransferInvalid,
  TransferNotFound,
  TransferNotPending,
  TransferWrongParty,
  transferView
} from "./Transfer.ts"
import { type TransferQuery, TransfersRepo } from "./TransfersRepos.ts"

/** How long a recipient has to accept, unless configured: 7 days. */
export const DEFAULT_ACCEPTANCE_TTL_SECONDS = 7 * 86_400

/** How long a recipient has to accept a transfer, in seconds. */
export const TransferAcceptanceTtl = Context.Reference<number>("@svc/domain/TransferAcceptanceTtl", {
  defaultValue: () => DEFAULT_ACCEPTANCE_TTL_SECONDS
})

/** What an agent sends: to an address or a payment code, an amount in USD cents, an optional memo. */
export interface CreateTransfer {
  readonly to: { readonly address: string } | { readonly paymentCode: string }
  readonly amount: number
  readonly currency: string
  readonly memo?: string | undefined
}

type CreateError =
  | TransferInvalid
  | ReceiveAddressNotFound
  | ReceiveHandleMissing
  | PaymentCodeNotFound
  | PaymentCodeUnusable
  | SettlementAccountMissing
  | PersistenceUnavailable

type PartyError = TransferNotFound | TransferWrongParty | TransferNotPending | PersistenceUnavailable

/** The category a transfer is governed under: the policy's category rules and category budgets see it as this. */
const TRANSFER_CATEGORY = "book_transfer"

/** Whose outbox a transfer's event goes to. */
type Audience = "sender" | "recipient" | "both"

/** The events of a transfer's change, each to the teams of `audience`, as each sees the transfer. */
const transferEvents = (t: Transfer, types: ReadonlyArray<TransferEventType>, audience: Audience, createdAt: string) =>
  Effect.map(
    Effect.all([
      audience === "recipient"
        ? Effect.succeed([])
        : domainEvents({ teamId: t.senderTeamId, mode: t.mode, data: transferView(t, "outgoing"), createdAt }, types),
      audience === "sender"
        ? Effect.succeed([])
        : domainEvents({ teamId: t.recipientTeamId, mode: t.mode, data: transferView(t, "incoming"), createdAt }, types)
    ]),
    ([toSender, toRecipient]) => [...toSender, ...toRecipient]
  )

/** Whether an open transfer is past its deadline at `nowMillis` (acceptance, or its approval's expiry). */
const isTransferDue = (t: Transfer, nowMillis: number) =>
  (t.status === "pending_acceptance" && t.expiresAt !== null && millisOfIso(t.expiresAt) <= nowMillis) ||
  (t.status === "pending_approval" &&
    t.approval !== null &&
    t.approval.status === "pending" &&
    millisOfIso(t.approval.expiresAt) <= nowMillis)

/**
 * Book transfers between teams of one mode (ADR 0014): the sender's policy decides as for a spend request, the amount
 * is held on the sender's account until the recipient accepts (posted, and credited to the recipient) or the transfer
 * ends otherwise (released), each exactly once, in the transaction that changes the status. An open transfer made with
 * a payment code holds the code, so a second one is refused when made; it uses the code when accepted and frees it when
 * it ends otherwise (ADR 0040).
 */
export class Transfers extends Context.Service<
  Transfers,
  GovernedOperations<Transfer, TransferQuery, TransferNotFound, TransferNotPending> & {
    readonly create: (agent: AgentPrincipal, input: CreateTransfer) => Effect.Effect<Transfer, CreateError>
    /**
     * The recipient takes the money, all or nothing: the hold is posted, the recipient's account credited and the
     * transfer's code used; refused (changing nothing) when the code is used or held by another transfer, which only a
     * transfer made before codes were held can meet.
     */
    readonly accept: (agent: AgentPrincipal, id: string) => Effect.Effect<Transfer, PartyError | PaymentCodeUnusable>
    readonly decline: (agent: AgentPrincipal, id: string) => Effect.Effect<Transfer, PartyError>
    readonly cancel: (agent: AgentPrincipal, id: string) => Effect.Effect<Transfer, PartyError>
  }
>()("@svc/domain/Transfers") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* TransfersRepo
    const spendRepo = yield* SpendRequestsRepo
    const ledger = yield* Ledger
    const ledgerRepo = yield* LedgerRepo
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const addresses = yield* ReceiveAddresses
    const codes = yield* PaymentCodes

    const publish = (t: Transfer, types: ReadonlyArray<TransferEventType>, audience: Audience) =>
      Effect.flatMap(nowIso, (createdAt) => transferEvents(t, types, audience, createdAt)).pipe(
        Effect.flatMap((events) => outbox.publish(...events))
      )

    /**
     * Where an accepted transfer lands in the recipient team: its first USD spend account, credited from its USD
     * external account (the outside world's side, which every team opens with a spend account of that currency).
     */
    const receivingAccounts = (teamId: TeamId, mode: Mode) =>
      Effect.map(ledger.accounts(teamId, { mode }), (accounts) => {
        const spend = accounts.find((a) => a.kind === "spend" && a.currency === "USD")
        const external = accounts.find((a) => a.kind === "external" && a.currency === "USD")
        return spend === undefined || external === undefined ? Option.none() : Option.some({ spend, external })
      })

    const invalid = (field: string, message: string) => new TransferInvalid({ field, message })

    const kernel = yield* governedLifecycle(
      { budgets: spendRepo, freezes: yield* SpendFreezesRepo },
      {
        name: "Transfers",
        type: "transfer",
        repo,
        id: { make: TransferId.make, is: Schema.is(TransferId) },
        category: TRANSFER_CATEGORY,
        whenApproved: "hold",
        approvedStatus: "pending_acceptance",
        approvingTeam: (t) => t.senderTeamId,
        party: (t, teamId) => directionOf(t, teamId) !== undefined,
        notFound: (id) => new TransferNotFound({ id }),
        notPending: (t, status) => new TransferNotPending({ id: t.id, status }),
        invalid: (field, message) => invalid(field === "accountId" ? "to" : field, message),
        isDue: isTransferDue,
        ended: (status: "declined" | "canceled" | "expired" | "denied", updatedAt) => ({
          status,
          expiresAt: null,
          updatedAt
        }),
        approvedAt: (now) =>
          Effect.map(TransferAcceptanceTtl, (ttl) => ({
            status: "pending_acceptance" as const,
            expiresAt: isoOfMillis(now + ttl * 1000),
            updatedAt: isoOfMillis(now)
          })),
        released: (t) =>
          Effect.gen(function* () {
            if (t.holdTransactionId !== null) yield* ledger.voidHold(t.senderTeamId, t.holdTransactionId)
            if (t.paymentCode !== null) yield* codes.release(t.paymentCode, t.id)
            return Effect.void
          }).pipe(
            Effect.catchTags({
              HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
              // The hold is written with the transfer, and ledger rows are never deleted.
              HoldNotFound: Effect.die
            })
          ),
        // The recipient knew of the transfer once it awaited acceptance.
        publish: (t, types, was) =>
          publish(
            t,
            types.map((type) => `transfer.${type}` as const),
            was.status === "pending_acceptance" ? "both" : "sender"
          ),
        // The recipient hears of the transfer once it awaits acceptance.
        approved: (t) => publish(t, ["transfer.created"], "recipient")
      }
    )

    const create = Effect.fn("Transfers.create")(function* (agent: AgentPrincipal, input: CreateTransfer) {
      yield* Schema.decodeUnknownEffect(PositiveAmountMinor)(input.amount).pipe(
        Effect.mapError((e) => invalid("amount", e.message))
      )
      if (input.currency !== "USD") return yield* invalid("currency", "book transfers are in USD only")
      if (input.memo !== undefined && input.memo.length > TRANSFER_MEMO_MAX_LENGTH) {
        return yield* invalid("memo", `a memo has at most ${TRANSFER_MEMO_MAX_LENGTH} characters`)
      }
      const now = yield* Clock.currentTimeMillis
      const target =
        "paymentCode" in input.to
          ? yield* Effect.gen(function* () {
              const code = yield* codes.resolve(agent.mode, (input.to as { paymentCode: string }).paymentCode)
              const status = paymentCodeStatus(code, now)
              if (status !== "active") return yield* new PaymentCodeUnusable({ code: code.code, status })
              if (code.amount !== null && code.amount !== input.amount) {
                return yield* invalid("amount", `the payment code fixes the amount at ${code.amount}`)
              }
              if (code.memo !== null && input.memo !== undefined && input.memo !== code.memo) {
                return yield* invalid("memo", "the payment code fixes the memo")
              }
              const address = yield* addresses.own(code.teamId, agent.mode)
              return { address, code: Option.some(code) }
            })
          : { address: yield* addresses.resolve(agent.mode, input.to.address), code: Option.none() }
      const recipient = target.address
      if (recipient.teamId === agent.teamId) return yield* invalid("to", "a team cannot transfer to its own address")
      if (Option.isNone(yield* receivingAccounts(recipient.teamId, agent.mode))) {
        return yield* invalid("to", `${recipient.address} cannot receive USD`)
      }
      const sender = yield* addresses.own(agent.teamId, agent.mode)
      const memo = input.memo ?? Option.getOrNull(Option.flatMap(target.code, (c) => Option.fromNullishOr(c.memo)))
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const start = yield* kernel.decide(agent, now, {
            amount: input.amount,
            currency: input.currency,
            merchant: recipient.address
          })
          const acceptanceTtl = yield* TransferAcceptanceTtl
          const t: Transfer = {
            id: start.id,
            mode: agent.mode,
            status: start.status,
            amount: input.amount,
            currency: "USD",
            memo,
            senderTeamId: agent.teamId,
            senderAddress: sender.address,
            senderAccountId: start.account.id,
            spendingKeyId: agent.keyId,
            recipientTeamId: recipient.teamId,
            recipientAddress: recipient.address,
            paymentCode: Option.getOrNull(Option.map(target.code, (c) => c.code)),
            decision: start.decision,
            approval: start.approvalView,
            holdTransactionId: start.ledgerTransaction?.id ?? null,
            expiresAt: start.status === "pending_acceptance" ? isoOfMillis(now + acceptanceTtl * 1000) : null,
            createdAt: start.createdAt,
            updatedAt: start.createdAt
          }
          // An open transfer holds its code until it ends; the code's row is locked last, as an acceptance locks it.
          return yield* kernel.record(
            t,
            start,
            t.status !== "denied" && Option.isSome(target.code) ? codes.reserve(target.code.value, t.id) : Effect.void
          )
        })
      )
    })

    /** The open transfer `id` of the agent's team, on the side the operation needs. */
    const partyTo = (agent: AgentPrincipal, id: string, side: "outgoing" | "incoming", operation: string) =>
      Effect.gen(function* () {
        const t = yield* kernel.current(yield* kernel.found(agent.teamId, agent.mode, id))
        if (directionOf(t, agent.teamId) !== side) {
          return yield* new TransferWrongParty({
            id,
            message: `only the ${side === "incoming" ? "recipient" : "sender"} can ${operation} a transfer`
          })
        }
        return t
      })

    const accept = Effect.fn("Transfers.accept")(function* (agent: AgentPrincipal, id: string) {
      const t = yield* partyTo(agent, id, "incoming", "accept")
      if (t.status !== "pending_acceptance") return yield* new TransferNotPending({ id, status: t.status })
      const receiving = yield* receivingAccounts(t.recipientTeamId, t.mode)
      // Checked when the transfer was made; accounts are never deleted.
      if (Option.isNone(receiving)) return yield* Effect.die(new Error(`${t.recipientAddress} cannot receive USD`))
      return yield* kernel.reportMeanwhile(
        t,
        transactor
          .withTransaction(
            Effect.gen(function* () {
              const { spend, external } = receiving.value
              // The transfer's row first, as every transition takes it (the winner holds it, the others find it
              // changed), then every account the acceptance moves, in id order, before any of them moves.
              const updated = yield* repo.transition(t.id, ["pending_acceptance"], {
                status: "completed",
                expiresAt: null,
                updatedAt: yield* nowIso
              })
              if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
              const settlement = yield* ledger.settlementAccount(t.senderTeamId, t.mode, "USD")
              yield* ledgerRepo.lockAccounts([t.senderAccountId, settlement.id, spend.id, external.id].toSorted())
              if (t.paymentCode !== null) yield* codes.use(t.paymentCode, t.id)
              if (t.holdTransactionId !== null) yield* ledger.postHold(t.senderTeamId, t.holdTransactionId)
              yield* ledger.deposit({
                teamId: t.recipientTeamId,
                mode: t.mode,
                accountId: spend.id,
                amount: t.amount,
                currency: "USD",
                code: "transfer",
                reference: t.id
              })
              yield* spendRepo.rememberMerchants([
                {
                  teamId: t.senderTeamId,
                  mode: t.mode,
                  merchant: normalizeMerchantName(t.recipientAddress),
                  at: updated.value.updatedAt
                }
              ])
              yield* publish(updated.value, ["transfer.completed"], "both")
              return updated.value
            })
          )
          .pipe(
            Effect.catchTags({
              HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
              DuplicateLedgerTransaction: () => Effect.fail(new DecidedMeanwhile()),
              // The hold was written with the transfer; the recipient's accounts were checked; the amount is positive;
              // the sender's settlement account held the hold; the transfer's code is a stored one (a foreign key).
              HoldNotFound: Effect.die,
              SettlementAccountMissing: Effect.die,
              AccountNotFound: Effect.die,
              InsufficientFunds: Effect.die,
              UnbalancedTransaction: Effect.die,
              PaymentCodeNotFound: Effect.die
            })
          )
      )
    })

    const decline = Effect.fn("Transfers.decline")(function* (agent: AgentPrincipal, id: string) {
      const t = yield* partyTo(agent, id, "incoming", "decline")
      if (t.status !== "pending_acceptance") return yield* new TransferNotPending({ id, status: t.status })
      return yield* kernel.reportMeanwhile(t, kernel.release(t, ["pending_acceptance"], "declined"))
    })

    const cancel = Effect.fn("Transfers.cancel")(function* (agent: AgentPrincipal, id: string) {
      const t = yield* partyTo(agent, id, "outgoing", "cancel")
      if (t.status !== "pending_approval" && t.status !== "pending_acceptance") {
        return yield* new TransferNotPending({ id, status: t.status })
      }
      return yield* kernel.cancel(t)
    })

    return Transfers.of({ ...kernel.operations, create, accept, decline, cancel })
  })
  static readonly layer = Layer.effect(Transfers, Transfers.make)

  /** A background job that expires due transfers every `interval`, for as long as the layer lives. */
  static readonly sweeper = (interval: Duration.Input) =>
    periodicJob(
      "transfer expiry",
      Transfers.use((t) => t.expireDue),
      interval
    )
}

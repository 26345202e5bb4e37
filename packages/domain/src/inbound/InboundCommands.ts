import { Context, Effect, Layer, Option, Schema } from "effect"
import { CardAuthorizations } from "../checkout/index.ts"
import { base64Stream, type FileStoreUnavailable } from "../files/index.ts"
import { BankAccountId, BankAccountsRepo, BankConnectionsRepo, bankConnectionView } from "../finance/banking/index.ts"
import { AttachmentUnreadable, Inbox, teamOfInboxAddress } from "../finance/documents/index.ts"
import { invoicePaymentRecorder } from "../finance/invoices/index.ts"
import { importBankTransactions, TransactionsRepo } from "../finance/transactions/index.ts"
import { ManagedEntitiesRepo, TeamNotFound, TeamPlansRepo, TeamsRepo } from "../identity/index.ts"
import { Ledger, pickSpendAccount } from "../ledger/index.ts"
import { EventOutbox } from "../platform/index.ts"
import { newId, newIdText, nowIso, type PersistenceUnavailable, TeamId, Transactor } from "../shared/index.ts"
import type {
  BankConnectionChanged,
  BankTransactionsReceived,
  DepositReceived,
  InboundCommand,
  InboxEmailReceived,
  KycDecisionReceived
} from "./InboundCommand.ts"
import {
  BankConnectionNotFound,
  cardEventRefused,
  DepositAccountNotFound,
  InboundCommandRefused,
  type InboundRefusalReason,
  InboxAddressUnknown,
  ManagedEntityNotFound
} from "./InboundRefusal.ts"

const refuse = (reason: InboundRefusalReason) => Effect.fail(new InboundCommandRefused({ reason }))

/** The plan a team falls back to when its subscription ends. */
const PLAN_AFTER_SUBSCRIPTION = { plan: "free", status: "canceled" } as const

/**
 * Applies what verified provider events report to the ledger, identity, banking and documents records, the card
 * issuer's events to checkout's authorizations, and invoice payments to invoices.
 */
export class InboundCommands extends Context.Service<
  InboundCommands,
  {
    /**
     * Applies a command. Applying the same command again changes nothing more (a deposit credits once per provider
     * and provider event id); a refusal changes nothing. An outage of the database or of the file store (inbox
     * attachments) leaves nothing either, and may be retried.
     */
    readonly handle: (
      command: InboundCommand
    ) => Effect.Effect<void, InboundCommandRefused | PersistenceUnavailable | FileStoreUnavailable>
  }
>()("@svc/domain/InboundCommands") {
  static readonly make = Effect.gen(function* () {
    const ledger = yield* Ledger
    const teams = yield* TeamsRepo
    const entities = yield* ManagedEntitiesRepo
    const connections = yield* BankConnectionsRepo
    const plans = yield* TeamPlansRepo
    const inbox = yield* Inbox
    const cardAuthorizations = yield* CardAuthorizations
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const bankAccounts = yield* BankAccountsRepo
    const transactions = yield* TransactionsRepo
    const recordInvoicePayment = yield* invoicePaymentRecorder

    const requireTeam = (teamId: TeamId) =>
      teams
        .findById(teamId)
        .pipe(Effect.flatMap((team) => (Option.isSome(team) ? Effect.void : refuse(new TeamNotFound({ teamId })))))

    const deposit = Effect.fn("InboundCommands.deposit")(function* (command: DepositReceived) {
      yield* requireTeam(command.teamId)
      const noAccount = new DepositAccountNotFound({
        teamId: command.teamId,
        currency: command.currency,
        accountId: command.accountId
      })
      const accounts = yield* ledger.accounts(command.teamId, { mode: "live", kind: "spend" })
      const account = pickSpendAccount(
        accounts.filter((a) => a.currency === command.currency),
        command.accountId
      )
      if (account === undefined) return yield* refuse(noAccount)
      yield* ledger
        .deposit({
          teamId: command.teamId,
          mode: "live",
          accountId: account.id,
          amount: command.amountMinor,
          currency: command.currency,
          reference: `${command.provider}:${command.providerEventId}`
        })
        .pipe(
          Effect.catchTags({
            DuplicateLedgerTransaction: () => Effect.void,
            AccountNotFound: () => refuse(noAccount),
            // The command's amount is positive and the account was picked among the team's spend accounts in its currency.
            InsufficientFunds: Effect.die,
            UnbalancedTransaction: Effect.die
          })
        )
    })

    const kycDecision = Effect.fn("InboundCommands.kycDecision")(function* (command: KycDecisionReceived) {
      const updated = yield* entities.setKycStatus(command.entityId, command.status, command.provider, yield* nowIso)
      if (!updated) return yield* refuse(new ManagedEntityNotFound({ entityId: command.entityId }))
    })

    const setPlan = Effect.fn("InboundCommands.setPlan")(function* (teamId: TeamId, plan: string, status: string) {
      yield* requireTeam(teamId)
      yield* plans.upsert({ teamId, plan, status, updatedAt: yield* nowIso })
    })

    const bankConnection = Effect.fn("InboundCommands.bankConnection")(function* (command: BankConnectionChanged) {
      const notFound = new BankConnectionNotFound({ provider: command.provider, externalId: command.externalId })
      const now = yield* nowIso
      if (command.status !== "disconnected") {
        if (!(yield* connections.setStatus(command.provider, command.externalId, command.status, now))) {
          return yield* refuse(notFound)
        }
        return
      }
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          const lost = yield* connections.disconnect(command.provider, command.externalId, now)
          // Only a connection that was working is lost: a repeated disconnection tells nobody again.
          if (Option.isNone(lost)) {
            const known = yield* connections.findByExternalId(command.provider, command.externalId)
            return Option.isNone(known) ? yield* refuse(notFound) : undefined
          }
          yield* outbox.publish({
            id: yield* newIdText,
            teamId: lost.value.teamId,
            mode: "live",
            type: "bank_connection.disconnected",
            data: bankConnectionView(lost.value),
            createdAt: now
          })
        })
      )
    })

    const bankTransactions = Effect.fn("InboundCommands.bankTransactions")(function* (
      command: BankTransactionsReceived
    ) {
      const connection = yield* connections.findByExternalId(command.provider, command.connectionExternalId)
      if (Option.isNone(connection)) {
        return yield* refuse(
          new BankConnectionNotFound({ provider: command.provider, externalId: command.connectionExternalId })
        )
      }
      const { teamId, id: connectionId } = connection.value
      const known = yield* bankAccounts.findByExternalId(teamId, connectionId, command.account.externalId)
      const account = Option.isSome(known)
        ? known.value
        : yield* Effect.gen(function* () {
            const at = yield* nowIso
            const opened = {
              id: yield* newId(BankAccountId),
              teamId,
              name: command.account.name,
              type: command.account.type,
              currency: command.account.currency,
              balanceMinor: 0,
              baseCurrency: null,
              baseBalanceMinor: null,
              enabled: true,
              manual: false,
              connectionId,
              externalId: command.account.externalId,
              createdAt: at,
              updatedAt: at
            }
            yield* bankAccounts.insert(opened)
            return opened
          })
      yield* importBankTransactions(transactions, account, command.provider, command.transactions)
    })

    const inboxEmail = Effect.fn("InboundCommands.inboxEmail")(function* (command: InboxEmailReceived) {
      const unknown = new InboxAddressUnknown({ address: command.recipient })
      const teamId = teamOfInboxAddress(command.recipient)
      if (teamId === undefined || !Schema.is(TeamId)(teamId)) return yield* refuse(unknown)
      if (Option.isNone(yield* teams.findById(teamId))) return yield* refuse(unknown)
      yield* inbox.receive(teamId, {
        messageId: command.messageId,
        sender: command.sender,
        recipient: command.recipient,
        subject: command.subject,
        textBody: command.textBody,
        htmlBody: command.htmlBody,
        attachments: command.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          size: a.size,
          content: base64Stream(a.content, () => new AttachmentUnreadable())
        }))
      })
    })

    const handle = (command: InboundCommand) => {
      switch (command._tag) {
        case "DepositReceived":
          return deposit(command)
        case "KycDecisionReceived":
          return kycDecision(command)
        case "PlanChanged":
          return setPlan(command.teamId, command.plan, command.status)
        case "SubscriptionEnded":
          return setPlan(command.teamId, PLAN_AFTER_SUBSCRIPTION.plan, PLAN_AFTER_SUBSCRIPTION.status)
        case "BankConnectionChanged":
          return bankConnection(command)
        case "BankTransactionsReceived":
          return bankTransactions(command)
        case "InboxEmailReceived":
          return inboxEmail(command)
        case "CardAuthorizationAdvised":
          return cardAuthorizations.advise(command).pipe(cardEventRefused)
        case "CardTransactionCleared":
          return cardAuthorizations.clear(command).pipe(cardEventRefused)
        case "CardTransactionRefunded":
          return cardAuthorizations.refund(command).pipe(cardEventRefused)
        case "CardStatusReported":
          return cardAuthorizations.cardChanged(command.cardToken, command.status).pipe(cardEventRefused)
        case "InvoicePaymentSucceeded":
          return recordInvoicePayment(command).pipe(
            Effect.asVoid,
            Effect.catchTags({ InvoiceNotFound: refuse, InvoiceStatusConflict: refuse, InvoicePaymentMismatch: refuse })
          )
      }
    }

    return InboundCommands.of({
      handle: (command) =>
        handle(command).pipe(Effect.withSpan("InboundCommands.handle", { attributes: { command: command._tag } }))
    })
  })

  static readonly layer = Layer.effect(InboundCommands, InboundCommands.make)
}

import { Schema } from "effect"
import { CardStatus } from "../checkout/model.ts"
import { ContentType, FileName } from "../files/model.ts"
import { BankAccountType, BankConnectionStatus } from "../finance/banking/index.ts"
import { teamOfInboxAddress } from "../finance/documents/index.ts"
import { KnownCurrency } from "../finance/money/model.ts"
import { BankFeedTransaction } from "../finance/transactions/model.ts"
import { KycStatus } from "../identity/index.ts"
import { AccountId, AmountMinor, Currency, PositiveAmountMinor, TeamId } from "../shared/index.ts"

const Provider = Schema.NonEmptyString

/** Money arrived for a team from outside: credit its live spend account in that currency (`accountId` when named). */
export class DepositReceived extends Schema.TaggedClass<DepositReceived>()("DepositReceived", {
  provider: Provider,
  providerEventId: Schema.NonEmptyString,
  teamId: TeamId,
  accountId: Schema.NullOr(AccountId),
  amountMinor: PositiveAmountMinor,
  currency: Currency
}) {}

/** A KYC provider's verdict on a managed entity. */
export class KycDecisionReceived extends Schema.TaggedClass<KycDecisionReceived>()("KycDecisionReceived", {
  provider: Provider,
  entityId: Schema.String.check(Schema.isUUID()),
  status: KycStatus
}) {}

/** The billing provider reports the team's current subscription plan and its status. */
export class PlanChanged extends Schema.TaggedClass<PlanChanged>()("PlanChanged", {
  teamId: TeamId,
  plan: Schema.NonEmptyString,
  status: Schema.NonEmptyString
}) {}

/** The billing provider ended the team's subscription (canceled or deleted). */
export class SubscriptionEnded extends Schema.TaggedClass<SubscriptionEnded>()("SubscriptionEnded", {
  teamId: TeamId
}) {}

/** A bank aggregator reports the state of a connection it knows by its own id. */
export class BankConnectionChanged extends Schema.TaggedClass<BankConnectionChanged>()("BankConnectionChanged", {
  provider: Provider,
  externalId: Schema.NonEmptyString,
  status: BankConnectionStatus
}) {}

/**
 * A bank aggregator or bank reports transactions of an account it reaches through a connection of a team: the account
 * is the team's connected account of that connection and external id (opened on the first report).
 */
export class BankTransactionsReceived extends Schema.TaggedClass<BankTransactionsReceived>()(
  "BankTransactionsReceived",
  {
    provider: Provider,
    connectionExternalId: Schema.NonEmptyString,
    account: Schema.Struct({
      externalId: Schema.NonEmptyString,
      name: Schema.NonEmptyString,
      currency: KnownCurrency,
      type: BankAccountType
    }),
    transactions: Schema.Array(BankFeedTransaction)
  }
) {}

/** An attachment of a received e-mail: its name, type, decoded size in bytes and content (base64). */
export const InboxEmailAttachment = Schema.Struct({
  filename: FileName,
  contentType: ContentType,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  content: Schema.String
})

/** An e-mail arrived on an inbox address. */
export class InboxEmailReceived extends Schema.TaggedClass<InboxEmailReceived>()("InboxEmailReceived", {
  messageId: Schema.NonEmptyString,
  sender: Schema.NonEmptyString,
  recipient: Schema.NonEmptyString,
  subject: Schema.String,
  textBody: Schema.String,
  htmlBody: Schema.String,
  attachments: Schema.Array(InboxEmailAttachment)
}) {}

/** The card issuer's later word on an authorization: its new amount, 0 when it is reversed. */
export class CardAuthorizationAdvised extends Schema.TaggedClass<CardAuthorizationAdvised>()(
  "CardAuthorizationAdvised",
  {
    token: Schema.NonEmptyString,
    amount: AmountMinor
  }
) {}

/** The card issuer cleared (settled) `amount` of an authorization. */
export class CardTransactionCleared extends Schema.TaggedClass<CardTransactionCleared>()("CardTransactionCleared", {
  transactionId: Schema.NonEmptyString,
  token: Schema.NonEmptyString,
  amount: PositiveAmountMinor,
  currency: Currency
}) {}

/** The card issuer refunded `amount` of a cleared authorization (the merchant gave money back). */
export class CardTransactionRefunded extends Schema.TaggedClass<CardTransactionRefunded>()("CardTransactionRefunded", {
  refundId: Schema.NonEmptyString,
  token: Schema.NonEmptyString,
  amount: PositiveAmountMinor,
  currency: Currency
}) {}

/** The card issuer reports a card's state. */
export class CardStatusReported extends Schema.TaggedClass<CardStatusReported>()("CardStatusReported", {
  cardToken: Schema.NonEmptyString,
  status: CardStatus
}) {}

/** The payments provider collected an invoice's payment (a succeeded payment intent). */
export class InvoicePaymentSucceeded extends Schema.TaggedClass<InvoicePaymentSucceeded>()("InvoicePaymentSucceeded", {
  provider: Provider,
  paymentIntentId: Schema.NonEmptyString,
  invoiceId: Schema.String.check(Schema.isUUID()),
  amountMinor: PositiveAmountMinor,
  currency: KnownCurrency
}) {}

/** What a verified provider event asks the service to do. */
export const InboundCommand = Schema.Union([
  DepositReceived,
  KycDecisionReceived,
  PlanChanged,
  SubscriptionEnded,
  BankConnectionChanged,
  BankTransactionsReceived,
  InboxEmailReceived,
  CardAuthorizationAdvised,
  CardTransactionCleared,
  CardTransactionRefunded,
  CardStatusReported,
  InvoicePaymentSucceeded
])
export type InboundCommand = typeof InboundCommand.Type

/**
 * The team a command names itself (deposits, plans, subscriptions, an inbox address), or null when only a lookup
 * could tell (KYC decisions and bank connections name records that may not exist yet; card events name the issuer's
 * tokens).
 */
export const teamOfCommand = (command: InboundCommand): TeamId | null => {
  switch (command._tag) {
    case "DepositReceived":
    case "PlanChanged":
    case "SubscriptionEnded":
      return command.teamId
    case "InboxEmailReceived": {
      const teamId = teamOfInboxAddress(command.recipient)
      return teamId !== undefined && Schema.is(TeamId)(teamId) ? teamId : null
    }
    case "KycDecisionReceived":
    case "BankConnectionChanged":
    case "BankTransactionsReceived":
    case "CardAuthorizationAdvised":
    case "CardTransactionCleared":
    case "CardTransactionRefunded":
    case "CardStatusReported":
    case "InvoicePaymentSucceeded":
      return null
  }
}

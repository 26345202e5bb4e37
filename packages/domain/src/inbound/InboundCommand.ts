import { Schema } from "effect"
import { BankConnectionStatus } from "../finance/banking/index.ts"
import { teamOfInboxAddress } from "../finance/documents/index.ts"
import { KycStatus } from "../identity/index.ts"
import { AccountId, Currency, PositiveAmountMinor, TeamId } from "../shared/index.ts"

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

/** An attachment of a received e-mail: its name, type and decoded size in bytes. */
export const InboxEmailAttachment = Schema.Struct({
  filename: Schema.NonEmptyString,
  contentType: Schema.NonEmptyString,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
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

/** What a verified provider event asks the service to do. */
export const InboundCommand = Schema.Union([
  DepositReceived,
  KycDecisionReceived,
  PlanChanged,
  SubscriptionEnded,
  BankConnectionChanged,
  InboxEmailReceived
])
export type InboundCommand = typeof InboundCommand.Type

/**
 * The team a command names itself (deposits, plans, subscriptions, an inbox address), or null when only a lookup
 * could tell (KYC decisions and bank connections name records that may not exist yet).
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
      return null
  }
}

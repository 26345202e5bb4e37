import { Effect, Schema } from "effect"
import {
  CardAdviceUnmatched,
  CardAuthorizationNotFound,
  CardClearingUnmatched,
  type CardEventRefusal,
  CardNotFound,
  CardRefundUnmatched
} from "../checkout/model.ts"
import { InvoiceNotFound, InvoicePaymentMismatch, InvoiceStatusConflict } from "../finance/invoices/model.ts"
import { TeamNotFound } from "../identity/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"

/** The team has no live spend account in the deposit's currency (or not the one the deposit names). */
export class DepositAccountNotFound extends Schema.TaggedError<DepositAccountNotFound>()("DepositAccountNotFound", {
  teamId: Schema.String,
  currency: Schema.String,
  accountId: Schema.NullOr(Schema.String)
}) {}

/** No managed entity has the id a KYC decision names. */
export class ManagedEntityNotFound extends Schema.TaggedError<ManagedEntityNotFound>()("ManagedEntityNotFound", {
  entityId: Schema.String
}) {}

/** The aggregator names a connection this service does not hold. */
export class BankConnectionNotFound extends Schema.TaggedError<BankConnectionNotFound>()("BankConnectionNotFound", {
  provider: Schema.String,
  externalId: Schema.String
}) {}

/** No team owns the address an e-mail was sent to. */
export class InboxAddressUnknown extends Schema.TaggedError<InboxAddressUnknown>()("InboxAddressUnknown", {
  address: Schema.String
}) {}

/** Why an inbound command was not applied. */
export const InboundRefusalReason = Schema.Union([
  TeamNotFound,
  DepositAccountNotFound,
  ManagedEntityNotFound,
  BankConnectionNotFound,
  InboxAddressUnknown,
  CardAuthorizationNotFound,
  CardNotFound,
  CardAdviceUnmatched,
  CardClearingUnmatched,
  CardRefundUnmatched,
  InvoiceNotFound,
  InvoiceStatusConflict,
  InvoicePaymentMismatch
])
export type InboundRefusalReason = typeof InboundRefusalReason.Type

const describe = (reason: InboundRefusalReason): string => {
  switch (reason._tag) {
    case "TeamNotFound":
      return `no team ${reason.teamId}`
    case "DepositAccountNotFound":
      return `no live ${reason.currency} spend account ${reason.accountId ?? ""} for team ${reason.teamId}`
    case "ManagedEntityNotFound":
      return `no managed entity ${reason.entityId}`
    case "BankConnectionNotFound":
      return `no bank connection ${reason.externalId} on ${reason.provider}`
    case "InboxAddressUnknown":
      return `no team owns the address ${reason.address}`
    case "CardAuthorizationNotFound":
      return `no card authorization ${reason.token}`
    case "CardNotFound":
      return `no card ${reason.cardToken}`
    case "CardAdviceUnmatched":
      return `advice on authorization ${reason.token} not held: ${reason.message}`
    case "CardClearingUnmatched":
      return `clearing of authorization ${reason.token} not posted: ${reason.message}`
    case "CardRefundUnmatched":
      return `refund of authorization ${reason.token} not posted: ${reason.message}`
    case "InvoiceNotFound":
      return `no invoice ${reason.id}`
    case "InvoiceStatusConflict":
      return `invoice ${reason.id} not paid: ${reason.message}`
    case "InvoicePaymentMismatch":
      return `invoice ${reason.id} not paid: ${reason.message}`
  }
}

/** An inbound command was refused and changed nothing; `retryable` says whether the same command may succeed later. */
export class InboundCommandRefused extends Schema.TaggedError<InboundCommandRefused>()("InboundCommandRefused", {
  reason: InboundRefusalReason
}) {
  /** True when the record the command names may still be created (a provider can report on it first); false when retrying cannot help. */
  get retryable(): boolean {
    return this.reason._tag === "ManagedEntityNotFound" || this.reason._tag === "BankConnectionNotFound"
  }

  override get message(): string {
    return describe(this.reason)
  }
}

const refused = (reason: InboundRefusalReason) => Effect.fail(new InboundCommandRefused({ reason }))

/** A card issuer's event as inbound applies it: what checkout refuses to apply is refused as the command. */
export const cardEventRefused = <R>(
  applied: Effect.Effect<void, CardEventRefusal | PersistenceUnavailable, R>
): Effect.Effect<void, InboundCommandRefused | PersistenceUnavailable, R> =>
  applied.pipe(
    Effect.catchTags({
      CardAuthorizationNotFound: refused,
      CardNotFound: refused,
      CardAdviceUnmatched: refused,
      CardClearingUnmatched: refused,
      CardRefundUnmatched: refused
    })
  )

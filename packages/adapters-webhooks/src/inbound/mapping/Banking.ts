import {
  AccountId,
  BankAccountType,
  BankConnectionChanged,
  BankTransactionsReceived,
  CalendarDate,
  Currency,
  DepositReceived,
  KnownCurrency,
  PositiveAmountMinor,
  SignedAmountMinor,
  TeamId
} from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Ignored, type ProviderEvent, Required } from "./EventMapping.ts"

/** `deposit.received` data (banking-a/b/c, bank-aggregator-a/b): money arrived on the team's live account. */
const DepositData = Schema.Struct({
  team_id: TeamId,
  amount: PositiveAmountMinor,
  currency: Currency,
  account_id: Schema.optionalKey(AccountId)
})

/** bank-aggregator-a item events (`item.disconnected`, `item.error`). */
const ItemData = Schema.Struct({ item_id: Required(200) })

/** bank-aggregator-b enrollment events (`enrollment.disconnected`). */
const EnrollmentData = Schema.Struct({ enrollment_id: Required(200) })

/**
 * `transactions.updated` data (every banking and bank-aggregator endpoint): transactions of one account reached through
 * a connection the service holds, amounts in signed minor units.
 */
const TransactionsData = Schema.Struct({
  connection_id: Required(200),
  account: Schema.Struct({
    id: Required(200),
    name: Required(200),
    currency: KnownCurrency,
    type: Schema.optionalKey(BankAccountType)
  }),
  transactions: Schema.Array(
    Schema.Struct({
      id: Required(200),
      date: CalendarDate,
      name: Required(500),
      amount: SignedAmountMinor,
      currency: KnownCurrency,
      pending: Schema.optionalKey(Schema.Boolean),
      description: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(2000)))),
      counterparty_name: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(500))))
    })
  ).check(Schema.isMaxLength(500))
})

const transactionsUpdated = (event: ProviderEvent) =>
  decodePart(
    TransactionsData,
    "transactions data"
  )(event.payload.data).pipe(
    Result.map(
      (data) =>
        new BankTransactionsReceived({
          provider: event.endpoint,
          connectionExternalId: data.connection_id,
          account: {
            externalId: data.account.id,
            name: data.account.name,
            currency: data.account.currency,
            type: data.account.type ?? "depository"
          },
          transactions: data.transactions.map((t) => ({
            id: t.id,
            date: t.date,
            name: t.name,
            amountMinor: t.amount,
            currency: t.currency,
            pending: t.pending ?? false,
            description: t.description ?? null,
            counterpartyName: t.counterparty_name ?? null
          }))
        })
    )
  )

const deposit = (event: ProviderEvent) =>
  decodePart(
    DepositData,
    "deposit data"
  )(event.payload.data).pipe(
    Result.map(
      (data) =>
        new DepositReceived({
          provider: event.endpoint,
          providerEventId: event.providerEventId,
          teamId: data.team_id,
          accountId: data.account_id ?? null,
          amountMinor: data.amount,
          currency: data.currency
        })
    )
  )

const disconnected = (event: ProviderEvent, externalId: string) =>
  new BankConnectionChanged({ provider: event.endpoint, externalId, status: "disconnected" })

/** banking-a, banking-b and banking-c: `deposit.received` credits the team; `transactions.updated` feeds an account. */
export const bankingEvents: EventMapping = (event) =>
  event.type === "deposit.received"
    ? deposit(event)
    : event.type === "transactions.updated"
      ? transactionsUpdated(event)
      : Result.succeed(Ignored)

/** bank-aggregator-a: `deposit.received` credits the team; `item.disconnected` and `item.error` disconnect the item. */
export const bankAggregatorAEvents: EventMapping = (event) => {
  switch (event.type) {
    case "deposit.received":
      return deposit(event)
    case "transactions.updated":
      return transactionsUpdated(event)
    case "item.disconnected":
    case "item.error":
      return decodePart(
        ItemData,
        "item data"
      )(event.payload.data).pipe(Result.map((data) => disconnected(event, data.item_id)))
    default:
      return Result.succeed(Ignored)
  }
}

/** bank-aggregator-b: `deposit.received` credits the team; `enrollment.disconnected` disconnects the enrollment. */
export const bankAggregatorBEvents: EventMapping = (event) => {
  switch (event.type) {
    case "deposit.received":
      return deposit(event)
    case "transactions.updated":
      return transactionsUpdated(event)
    case "enrollment.disconnected":
      return decodePart(
        EnrollmentData,
        "enrollment data"
      )(event.payload.data).pipe(Result.map((data) => disconnected(event, data.enrollment_id)))
    default:
      return Result.succeed(Ignored)
  }
}

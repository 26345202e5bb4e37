import { AccountId, BankConnectionChanged, Currency, DepositReceived, PositiveAmountMinor, TeamId } from "@svc/domain"
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

/** banking-a, banking-b and banking-c: `deposit.received` credits the team. */
export const bankingEvents: EventMapping = (event) =>
  event.type === "deposit.received" ? deposit(event) : Result.succeed(Ignored)

/** bank-aggregator-a: `deposit.received` credits the team; `item.disconnected` and `item.error` disconnect the item. */
export const bankAggregatorAEvents: EventMapping = (event) => {
  switch (event.type) {
    case "deposit.received":
      return deposit(event)
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
    case "enrollment.disconnected":
      return decodePart(
        EnrollmentData,
        "enrollment data"
      )(event.payload.data).pipe(Result.map((data) => disconnected(event, data.enrollment_id)))
    default:
      return Result.succeed(Ignored)
  }
}

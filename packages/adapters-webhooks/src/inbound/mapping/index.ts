import { type TeamId, teamOfCommand } from "@svc/domain"
import { Result } from "effect"
import { bankAggregatorAEvents, bankAggregatorBEvents, bankingEvents } from "./Banking.ts"
import { billingAEvents } from "./Billing.ts"
import { cardIssuingAEvents } from "./CardIssuing.ts"
import type { EventMapping, ProviderEvent } from "./EventMapping.ts"
import { Ignored } from "./EventMapping.ts"
import { inboxEvents } from "./Inbox.ts"
import { kycAEvents, kycBEvents, kycCEvents, kycDEvents } from "./Kyc.ts"
import { paymentsEvents } from "./Payments.ts"

const MAPPINGS: ReadonlyMap<string, EventMapping> = new Map([
  ["banking-a", bankingEvents],
  ["banking-b", bankingEvents],
  ["banking-c", bankingEvents],
  ["bank-aggregator-a", bankAggregatorAEvents],
  ["bank-aggregator-b", bankAggregatorBEvents],
  ["billing-a", billingAEvents],
  ["card-issuing-a", cardIssuingAEvents],
  ["kyc-a", kycAEvents],
  ["kyc-b", kycBEvents],
  ["kyc-c", kycCEvents],
  ["kyc-d", kycDEvents],
  ["inbox", inboxEvents],
  ["payments", paymentsEvents]
])

/** The command a stored event asks for, by its endpoint's mapping; an endpoint without one ignores every event. */
export const commandOf: EventMapping = (event) => MAPPINGS.get(event.endpoint)?.(event) ?? Result.succeed(Ignored)

/** The team whose owners and admins may review a stored event: the one its command names, if any. */
export const teamOfEvent = (event: ProviderEvent): TeamId | null => {
  const mapped = commandOf(event)
  return Result.isSuccess(mapped) && mapped.success._tag !== "Ignored" ? teamOfCommand(mapped.success) : null
}

export { Ignored } from "./EventMapping.ts"
export { InboxMessage } from "./Inbox.ts"

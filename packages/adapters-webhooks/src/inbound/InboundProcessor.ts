import {
  type AccountId,
  BankConnectionsRepo,
  type InboundEvent,
  InboundProcessingFailed,
  InboxItemsRepo,
  Ledger,
  ManagedEntitiesRepo,
  newIdText,
  type TeamId,
  TeamPlansRepo,
  Teams
} from "@svc/domain"
import { Context, Effect, Layer, Schema } from "effect"
import {
  DepositData,
  EnrollmentData,
  InboxMessage,
  ItemData,
  KycData,
  kycStatusOf,
  SubscriptionData
} from "./Payloads.ts"

const permanent = (message: string) => new InboundProcessingFailed({ message, retryable: false })
const transient = (message: string) => new InboundProcessingFailed({ message, retryable: true })

const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown, what: string) =>
  Schema.decodeUnknownEffect(schema)(value, { errors: "all" }).pipe(
    Effect.mapError((error) => permanent(`invalid ${what}: ${error.message.replaceAll("\n", " ")}`))
  )

const DEPOSIT_ENDPOINTS = new Set(["banking-a", "banking-b", "banking-c", "bank-aggregator-a", "bank-aggregator-b"])
const KYC_ENDPOINTS = new Set(["kyc-a", "kyc-b", "kyc-c", "kyc-d"])
const SUBSCRIPTION_TYPES = new Set([
  "subscription.created",
  "subscription.updated",
  "subscription.canceled",
  "subscription.deleted"
])
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/iu

/** The team id in an inbox address's local part (`<team id>@…` or `anything+<team id>@…`). */
export const teamOfInboxAddress = (address: string): string | undefined => {
  const bare = /<([^>]*)>/u.exec(address)?.[1] ?? address
  const local = bare.split("@")[0] ?? ""
  return UUID.exec(local)?.[0]?.toLowerCase()
}

/** Applies a stored provider event to the service's records; idempotent, so a retry after a crash is harmless. */
export class InboundProcessor extends Context.Service<
  InboundProcessor,
  { readonly process: (event: InboundEvent) => Effect.Effect<void, InboundProcessingFailed> }
>()("@svc/adapters-webhooks/InboundProcessor") {
  static readonly make = Effect.gen(function* () {
    const ledger = yield* Ledger
    const entities = yield* ManagedEntitiesRepo
    const connections = yield* BankConnectionsRepo
    const plans = yield* TeamPlansRepo
    const inbox = yield* InboxItemsRepo

    const teams = yield* Teams
    const teamExists = (teamId: string) => teams.exists(teamId as TeamId)

    const deposit = (event: InboundEvent) =>
      Effect.gen(function* () {
        const data = yield* decode(DepositData, event.payload.data, "deposit data")
        const accounts = yield* ledger.accounts(data.team_id as TeamId, { mode: "live", kind: "spend" })
        const account = accounts.find(
          (a) => a.currency === data.currency && (data.account_id === undefined || a.id === data.account_id)
        )
        if (account === undefined) {
          return yield* permanent(
            `no live ${data.currency} spend account ${data.account_id ?? ""} for team ${data.team_id}`
          )
        }
        yield* ledger
          .deposit({
            teamId: data.team_id as TeamId,
            mode: "live",
            accountId: account.id as AccountId,
            amount: data.amount,
            currency: data.currency,
            reference: `${event.endpoint}:${event.providerEventId}`
          })
          .pipe(
            Effect.asVoid,
            Effect.catchTags({
              DuplicateLedgerTransaction: () => Effect.void,
              AccountNotFound: (e) => Effect.fail(permanent(`account ${e.accountId} not found`)),
              InsufficientFunds: () => Effect.fail(permanent("deposit rejected by the ledger")),
              UnbalancedTransaction: () => Effect.fail(permanent("deposit rejected by the ledger"))
            })
          )
      })

    const kyc = (event: InboundEvent) =>
      Effect.gen(function* () {
        const data = yield* decode(KycData, event.payload.data, "KYC data")
        const status = kycStatusOf(event.endpoint, event.type, data)
        if (status === undefined) return
        const updated = yield* entities.setKycStatus(data.entity_id, status, event.endpoint, new Date().toISOString())
        if (!updated) return yield* transient(`no managed entity ${data.entity_id}`)
      })

    const disconnect = (event: InboundEvent, externalId: string) =>
      connections
        .setStatus(event.endpoint, externalId, "disconnected", new Date().toISOString())
        .pipe(
          Effect.flatMap((found) =>
            found ? Effect.void : Effect.fail(transient(`no bank connection ${externalId} on ${event.endpoint}`))
          )
        )

    const subscription = (event: InboundEvent) =>
      Effect.gen(function* () {
        const data = yield* decode(SubscriptionData, event.payload.data, "subscription data")
        if (!(yield* teamExists(data.team_id))) return yield* permanent(`no team ${data.team_id}`)
        const ended = event.type === "subscription.canceled" || event.type === "subscription.deleted"
        yield* plans.upsert({
          teamId: data.team_id as TeamId,
          plan: ended ? "free" : data.plan,
          status: ended ? "canceled" : data.status,
          updatedAt: new Date().toISOString()
        })
      })

    const inboxItem = (event: InboundEvent) =>
      Effect.gen(function* () {
        const message = yield* decode(InboxMessage, event.payload, "inbox message")
        const teamId = teamOfInboxAddress(message.To)
        if (teamId === undefined || !(yield* teamExists(teamId))) {
          return yield* permanent(`no team owns the address ${message.To}`)
        }
        yield* inbox.insert({
          id: yield* newIdText,
          teamId: teamId as TeamId,
          messageId: message.MessageID,
          sender: message.From,
          recipient: message.To,
          subject: message.Subject ?? "",
          textBody: message.TextBody ?? "",
          htmlBody: message.HtmlBody ?? "",
          attachments: (message.Attachments ?? []).map((a) => ({
            filename: a.Name,
            contentType: a.ContentType,
            size: Buffer.from(a.Content, "base64").length
          })),
          createdAt: new Date().toISOString()
        })
      })

    const route = (
      event: InboundEvent
    ): Effect.Effect<void, InboundProcessingFailed | { readonly _tag: "PersistenceUnavailable" }> => {
      if (DEPOSIT_ENDPOINTS.has(event.endpoint) && event.type === "deposit.received") return deposit(event)
      if (KYC_ENDPOINTS.has(event.endpoint)) return kyc(event)
      if (event.endpoint === "billing-a" && SUBSCRIPTION_TYPES.has(event.type)) return subscription(event)
      if (event.endpoint === "inbox") return inboxItem(event)
      if (
        event.endpoint === "bank-aggregator-a" &&
        (event.type === "item.disconnected" || event.type === "item.error")
      ) {
        return decode(ItemData, event.payload.data, "item data").pipe(
          Effect.flatMap((d) => disconnect(event, d.item_id))
        )
      }
      if (event.endpoint === "bank-aggregator-b" && event.type === "enrollment.disconnected") {
        return decode(EnrollmentData, event.payload.data, "enrollment data").pipe(
          Effect.flatMap((d) => disconnect(event, d.enrollment_id))
        )
      }
      return Effect.void
    }

    return InboundProcessor.of({
      process: (event) =>
        route(event).pipe(
          Effect.catchTag("PersistenceUnavailable", () => Effect.fail(transient("the database is unavailable"))),
          Effect.withSpan("InboundProcessor.process", { attributes: { endpoint: event.endpoint, type: event.type } })
        )
    })
  })
  static readonly layer = Layer.effect(InboundProcessor, InboundProcessor.make)
}

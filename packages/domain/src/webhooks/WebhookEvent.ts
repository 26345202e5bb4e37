import { Schema } from "effect"
import { CheckoutIntentEventType, CheckoutIntentView } from "../checkout/model.ts"
import { CryptoPayoutEventType, CryptoPayoutView } from "../crypto/model.ts"
import { BankConnectionEventType, BankConnectionView } from "../finance/banking/model.ts"
import { InvoiceEventType, InvoicePaymentView } from "../finance/invoices/model.ts"
import {
  ChatIntegrationDisconnection,
  ChatIntegrationEventType,
  InboxAccountEventType,
  InboxConnectionFailureView
} from "../integrations/model.ts"
import { Mode } from "../shared/model.ts"
import { SpendRequestEventType, SpendRequestView } from "../spend/model.ts"
import { TransferEventType, TransferView } from "../transfers/model.ts"
import { X402PaymentEventType, X402PaymentView } from "../x402/model.ts"
import { WebhookEndpointEventType, WebhookEndpointView } from "./WebhookEndpoint.ts"

/** The body of one family of outbound events: its event types and the view of the resource they carry as `data`. */
const eventOf = <T extends Schema.Top, D extends Schema.Top>(type: T, data: D) =>
  Schema.Struct({
    id: Schema.String,
    object: Schema.Literal("event"),
    type,
    mode: Mode,
    createdAt: Schema.String,
    data
  })

/**
 * The body of an outbound webhook delivery, `{id, object: "event", type, mode, createdAt, data}`: a union on `type`
 * whose `data` is the view of the resource the event is about, as of the change.
 */
export const WebhookEvent = Schema.Union([
  eventOf(SpendRequestEventType, SpendRequestView),
  eventOf(TransferEventType, TransferView),
  eventOf(CheckoutIntentEventType, CheckoutIntentView),
  eventOf(CryptoPayoutEventType, CryptoPayoutView),
  eventOf(X402PaymentEventType, X402PaymentView),
  eventOf(WebhookEndpointEventType, WebhookEndpointView),
  eventOf(BankConnectionEventType, BankConnectionView),
  eventOf(InvoiceEventType, InvoicePaymentView),
  eventOf(ChatIntegrationEventType, ChatIntegrationDisconnection),
  eventOf(InboxAccountEventType, InboxConnectionFailureView)
])
export type WebhookEvent = typeof WebhookEvent.Type

/** Every event type an endpoint can subscribe to (besides `*`). */
export type WebhookEventType = WebhookEvent["type"]

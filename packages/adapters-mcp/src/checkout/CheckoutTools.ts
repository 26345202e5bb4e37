import {
  CardCredentialsResponse,
  CheckoutIntentResponse,
  CreateCheckoutIntentBody,
  UuidParam
} from "@svc/adapters-http/api"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import {
  ById,
  ClientRequestId,
  callService,
  idempotencyHeaders,
  readsOnly,
  ServiceClient,
  ToolFailure,
  toolHints
} from "../shared/index.ts"

/** Asks to buy from one merchant with a single-use card. */
export const CreateCheckoutIntent = Tool.make("create_checkout_intent", {
  description:
    "Ask to buy `amount` (an integer in minor units of the account's currency) from one merchant, paid with a " +
    "single-use card. The policy decides as for a spend request: `approved` (call issue_card_for_intent next), " +
    "`pending_approval` (a person must approve; follow it with get_checkout_intent, do not resend) or `denied`. No money moves until the card is " +
    "charged. The intent expires after `expiresInSeconds` (default 1 hour). Pass a `clientRequestId` and reuse it on " +
    "retries so one intent is made. Needs spend.write.",
  parameters: Schema.Struct({ ...CreateCheckoutIntentBody.fields, clientRequestId: ClientRequestId }),
  success: CheckoutIntentResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: false, idempotent: false, openWorld: false }))

/** Reads one checkout intent. */
export const GetCheckoutIntent = Tool.make("get_checkout_intent", {
  description:
    "Read one checkout intent by id: its status (`pending_approval`, `approved`, `authorized`, `completed`, `expired`, " +
    "`canceled`, `denied`), amount in minor units, merchant and expiry. Use it to follow a `pending_approval` intent until a " +
    "person decides, then call issue_card_for_intent once it is `approved`. Needs spend.read.",
  parameters: ById("checkout intent"),
  success: CheckoutIntentResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** Issues (or re-reads) the card of an approved intent. */
export const IssueCardForIntent = Tool.make("issue_card_for_intent", {
  description:
    "Get the single-use virtual card of an `approved` checkout intent, locked to its merchant and amount. The first " +
    "answer carries the card `number` and `cvc` exactly once: use them at once and never store them; later calls " +
    "answer the same card without them. Fails with `checkout_intent_not_usable` when the intent is not approved. " +
    "Needs spend.write.",
  parameters: Schema.Struct({ intentId: UuidParam.annotate({ description: "The checkout intent's id." }) }),
  success: CardCredentialsResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: false, idempotent: true, openWorld: true }))

/** The checkout tools' handlers. */
export const checkoutHandlers = {
  create_checkout_intent: ({ clientRequestId, ...payload }: typeof CreateCheckoutIntent.parametersSchema.Type) =>
    callService((client) => client.checkout.create({ payload, ...idempotencyHeaders(clientRequestId) })),
  get_checkout_intent: ({ id }: typeof GetCheckoutIntent.parametersSchema.Type) =>
    callService((client) => client.checkout.get({ params: { id } })),
  issue_card_for_intent: ({ intentId }: typeof IssueCardForIntent.parametersSchema.Type) =>
    callService((client) => client.checkoutCredentials.credentials({ params: { id: intentId } }))
}

import {
  AuthorizationIdParam,
  CardAuthorizationResponse,
  CheckoutCardResponse,
  SimulateAdviceBody,
  SimulateAuthorizationBody,
  SimulateCardStatusBody,
  SimulateClearingBody,
  SimulateRefundBody,
  UuidParam
} from "@svc/adapters-http/api"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import {
  ClientRequestId,
  callService,
  idempotencyHeaders,
  ServiceClient,
  ToolFailure,
  toolHints
} from "../shared/index.ts"

const TEST_ONLY = "Test mode only: a live key is refused (403 forbidden) and nothing happens."

const cardId = UuidParam.annotate({ description: "The card's id (`cardId` from issue_card_for_intent)." })
const authorizationId = AuthorizationIdParam.annotate({
  description: "The authorization's id (`id` from simulate_card_authorization)."
})

/** Asks, as the card issuer would, to authorize a purchase on a test-mode card. */
export const SimulateCardAuthorization = Tool.make("simulate_card_authorization", {
  description:
    "Test mode: act as the card issuer and ask to authorize `amount` (an integer in minor units) on a card at a " +
    "merchant (`descriptor`, optional `mcc` and `country`), the way a checkout page charging the card would. The " +
    "service decides as for a real charge: `decision` `APPROVED` holds the money and makes the intent `authorized`; " +
    "`DECLINED` names `declineReason` (e.g. `amount_over_intent`, `merchant_mismatch`, `intent_not_approved` on a " +
    "used card). Keep the answer's `id` for the advice, clearing and refund tools. Pass a `clientRequestId` and " +
    `reuse it on retries so one authorization is made. ${TEST_ONLY} Needs spend.write.`,
  parameters: Schema.Struct({ cardId, ...SimulateAuthorizationBody.fields, clientRequestId: ClientRequestId }),
  success: CardAuthorizationResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: false, openWorld: false }))

/** The issuer's advice on a test-mode authorization. */
export const SimulateAuthorizationAdvice = Tool.make("simulate_authorization_advice", {
  description:
    "Test mode: act as the card issuer and change an approved authorization's amount (minor units): more than it " +
    "holds is an increase (a tip), less a decrease, 0 a reversal that releases the hold and makes the intent " +
    "`approved` again. An authorization that is not approved is left as it is; an increase beyond the available " +
    `balance fails with \`card_advice_unmatched\`. ${TEST_ONLY} Needs spend.write.`,
  parameters: Schema.Struct({ authorizationId, ...SimulateAdviceBody.fields }),
  success: CardAuthorizationResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: true, openWorld: false }))

/** The issuer's clearing of a test-mode authorization. */
export const SimulateClearing = Tool.make("simulate_clearing", {
  description:
    "Test mode: act as the card issuer and clear (settle) an approved authorization: posts `amount` (minor units; " +
    "the whole hold when absent, less releases the rest), completes the intent and closes the card. A cleared " +
    "authorization is cleared once; one that holds nothing or less than `amount` fails with " +
    `\`card_clearing_unmatched\`. ${TEST_ONLY} Needs spend.write.`,
  parameters: Schema.Struct({ authorizationId, ...SimulateClearingBody.fields }),
  success: CardAuthorizationResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: true, openWorld: false }))

/** The issuer's refund of a cleared test-mode authorization. */
export const SimulateRefund = Tool.make("simulate_refund", {
  description:
    "Test mode: act as the card issuer and refund `amount` (minor units) of a cleared authorization back to the " +
    "spend account; all refunds together at most what was cleared (else `card_refund_unmatched`). Pass a " +
    `\`clientRequestId\` and reuse it on retries so the refund is made once. ${TEST_ONLY} Needs spend.write.`,
  parameters: Schema.Struct({ authorizationId, ...SimulateRefundBody.fields, clientRequestId: ClientRequestId }),
  success: CardAuthorizationResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: false, openWorld: false }))

/** The issuer's card event on a test-mode card. */
export const SimulateCardStatus = Tool.make("simulate_card_status", {
  description:
    "Test mode: act as the card issuer and report a card's state: `active`, `inactive` (frozen; its authorizations " +
    `are declined) or \`closed\` (for good: a closed card never reopens). ${TEST_ONLY} Needs spend.write.`,
  parameters: Schema.Struct({ cardId, ...SimulateCardStatusBody.fields }),
  success: CheckoutCardResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: true, openWorld: false }))

/** The test-mode checkout tools' handlers. */
export const checkoutTestHandlers = {
  simulate_card_authorization: ({
    cardId,
    clientRequestId,
    ...payload
  }: typeof SimulateCardAuthorization.parametersSchema.Type) =>
    callService((client) =>
      client.checkoutTestHelpers.authorize({ params: { id: cardId }, payload, ...idempotencyHeaders(clientRequestId) })
    ),
  simulate_authorization_advice: ({
    authorizationId,
    ...payload
  }: typeof SimulateAuthorizationAdvice.parametersSchema.Type) =>
    callService((client) => client.checkoutTestHelpers.advise({ params: { id: authorizationId }, payload })),
  simulate_clearing: ({ authorizationId, ...payload }: typeof SimulateClearing.parametersSchema.Type) =>
    callService((client) => client.checkoutTestHelpers.clear({ params: { id: authorizationId }, payload })),
  simulate_refund: ({ authorizationId, clientRequestId, ...payload }: typeof SimulateRefund.parametersSchema.Type) =>
    callService((client) =>
      client.checkoutTestHelpers.refund({
        params: { id: authorizationId },
        payload,
        ...idempotencyHeaders(clientRequestId)
      })
    ),
  simulate_card_status: ({ cardId, ...payload }: typeof SimulateCardStatus.parametersSchema.Type) =>
    callService((client) => client.checkoutTestHelpers.cardStatus({ params: { id: cardId }, payload }))
}

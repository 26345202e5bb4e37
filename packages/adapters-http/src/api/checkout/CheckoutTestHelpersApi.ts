import {
  AmountMinor,
  CardAuthorizationView,
  CardStatus,
  CardView,
  CountryCode,
  Currency,
  MerchantCategoryCode,
  PositiveAmountMinor
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { IdempotencyKeyHeader, Idempotent } from "../platform/index.ts"
import {
  AgentAuth,
  CommonErrors,
  Conflict,
  Forbidden,
  NotFound,
  RequiredScope,
  TooManyRequests,
  Unprocessable,
  UuidParam
} from "../shared/index.ts"

/** A simulated authorization as answered: its decision, status and what it holds and refunded. */
export const CardAuthorizationResponse = CardAuthorizationView

/** A checkout card's state as answered, never its number. */
export const CheckoutCardResponse = CardView

/** An authorization's id in a path: the issuer's token it was decided under. */
export const AuthorizationIdParam = Schema.String.check(
  Schema.isBetweenLength(1, 255, { message: "expected an authorization id of 1..255 characters" })
).annotate({
  description: "The authorization's id, as the simulated authorization answered it.",
  examples: ["7c0f3ad2-5b1e-4c8e-9a51-2f6d0e4b9c17"]
})

/** The body of a simulated authorization: what the issuer's auth-stream request carries, the card named by its id. */
export const SimulateAuthorizationBody = Schema.Struct({
  amount: PositiveAmountMinor,
  currency: Currency.annotate({
    description: "The ISO 4217 code of the amount's currency, in upper case.",
    examples: ["USD"]
  }),
  merchant: Schema.Struct({
    descriptor: Schema.String.check(
      Schema.isBetweenLength(1, 255, { message: "expected 1..255 characters" }),
      Schema.isPattern(/\S/u, { message: "must not be blank" })
    ).annotate({
      description: "The merchant's descriptor as the card network shows it (1..255 characters).",
      examples: ["ACME BOOKS #42"]
    }),
    mcc: Schema.optionalKey(MerchantCategoryCode),
    country: Schema.optionalKey(CountryCode)
  }).annotate({ description: "The merchant asking for the money." })
})

/** The body of a simulated advice: the authorization's new amount. */
export const SimulateAdviceBody = Schema.Struct({
  amount: AmountMinor.annotate({
    description:
      "The authorization's new amount in minor units: more than it holds is an increase, less a decrease, 0 a reversal (the hold released, the intent `approved` again).",
    examples: [2700]
  })
})

/** The body of a simulated clearing: how much of the hold the merchant captured. */
export const SimulateClearingBody = Schema.Struct({
  amount: Schema.optionalKey(
    PositiveAmountMinor.annotate({
      description:
        "The amount cleared in minor units, at most what the authorization holds; the whole hold when absent. Less posts that and releases the rest.",
      examples: [2300]
    })
  )
})

/** The body of a simulated refund: how much of the cleared amount the merchant gives back. */
export const SimulateRefundBody = Schema.Struct({
  amount: PositiveAmountMinor.annotate({
    description:
      "The amount refunded in minor units; all refunds of an authorization together at most what was cleared.",
    examples: [500]
  })
})

/** The body of a simulated card event: the state the issuer reports. */
export const SimulateCardStatusBody = Schema.Struct({
  status: CardStatus.annotate({
    description: "The card's state at the issuer: `active`, `inactive` (frozen) or `closed` (for good).",
    examples: ["closed"]
  })
})

const errors = [...CommonErrors, Forbidden, TooManyRequests, NotFound, Conflict, Unprocessable] as const
const cardParams = { id: UuidParam }
const authorizationParams = { id: AuthorizationIdParam }

/**
 * Test mode's card issuer (ADR 0059): make the issuer's requests and events happen to a test-mode card, through the
 * same decisions and postings the issuer's own calls reach. Test-mode keys only (403 for live keys).
 */
export class CheckoutTestHelpersApi extends HttpApiGroup.make("checkoutTestHelpers")
  .add(
    HttpApiEndpoint.post("authorize", "/v1/test-helpers/checkout/cards/:id/authorizations", {
      headers: IdempotencyKeyHeader,
      params: cardParams,
      payload: SimulateAuthorizationBody,
      success: CardAuthorizationResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Simulate a card authorization")
      .annotate(
        OpenApi.Description,
        "Asks, as the card issuer would, to authorize `amount` on the team's test-mode card `id` at `merchant`. The " +
          "service decides exactly as it decides the issuer's auth-stream request: `decision` `APPROVED` holds the " +
          "money (ledger code `card_authorization`) and moves the intent to `authorized`; `DECLINED` names " +
          "`declineReason` and moves nothing. 201 either way, with the authorization's `id` for later advice, " +
          "clearing and refunds. 403 for live keys, 404 for a card of another team or mode."
      ),
    HttpApiEndpoint.post("advise", "/v1/test-helpers/checkout/authorizations/:id/advice", {
      headers: IdempotencyKeyHeader,
      params: authorizationParams,
      payload: SimulateAdviceBody,
      success: CardAuthorizationResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Simulate an authorization advice")
      .annotate(
        OpenApi.Description,
        "The issuer's `authorization.advice`: moves an `approved` authorization's hold to `amount` (an increase or a " +
          "decrease), or releases it with 0 (a reversal: status `reversed`, the intent `approved` again). An " +
          "authorization that is not `approved` is left as it is, as the issuer's event would leave it. 409 " +
          "`card_advice_unmatched` when an increase exceeds the spend account's available balance; nothing moves."
      ),
    HttpApiEndpoint.post("clear", "/v1/test-helpers/checkout/authorizations/:id/clearing", {
      headers: IdempotencyKeyHeader,
      params: authorizationParams,
      payload: SimulateClearingBody,
      success: CardAuthorizationResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Simulate a clearing")
      .annotate(
        OpenApi.Description,
        "The issuer's `transaction` (clearing): posts `amount` of the hold (the whole hold when absent; less releases " +
          "the rest), completes the intent with `capturedAmount` and closes the card. 409 `card_clearing_unmatched` " +
          "when the authorization holds nothing (declined, reversed) or less than `amount`; nothing moves."
      ),
    HttpApiEndpoint.post("refund", "/v1/test-helpers/checkout/authorizations/:id/refunds", {
      headers: IdempotencyKeyHeader,
      params: authorizationParams,
      payload: SimulateRefundBody,
      success: CardAuthorizationResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Simulate a refund")
      .annotate(
        OpenApi.Description,
        "The issuer's `refund`: the merchant gives `amount` of a `cleared` authorization back, posted to the spend " +
          "account (ledger code `card_refund`) and added to `refundedAmount`; the intent stays `completed`. 409 " +
          "`card_refund_unmatched` when the authorization is not cleared or the refunds would exceed what was cleared; " +
          "nothing moves."
      ),
    HttpApiEndpoint.post("cardStatus", "/v1/test-helpers/checkout/cards/:id/status", {
      headers: IdempotencyKeyHeader,
      params: cardParams,
      payload: SimulateCardStatusBody,
      success: CheckoutCardResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Simulate a card status event")
      .annotate(
        OpenApi.Description,
        "The issuer's `card.*` event: records the card's state (`active`, `inactive`, `closed`). A closed card stays " +
          "closed whatever is reported later; an inactive or closed card's authorizations are declined `card_inactive`."
      )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

import {
  CardCredentials,
  CheckoutIntentStatus,
  CheckoutIntentView,
  CountryCode,
  Currency,
  INTENT_TEXT_MAX_LENGTH,
  MAX_INTENT_TTL_SECONDS,
  MerchantCategoryCode,
  MIN_INTENT_TTL_SECONDS,
  PositiveAmountMinor
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { IdempotencyKeyHeader, IdempotencyKeyRequired, Idempotent } from "../platform/index.ts"
import {
  AgentAuth,
  CommonErrors,
  Conflict,
  Forbidden,
  HttpUrl,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  TooManyRequests,
  Unprocessable,
  UuidParam
} from "../shared/index.ts"

const IntentText = Schema.String.check(
  Schema.isBetweenLength(1, INTENT_TEXT_MAX_LENGTH, { message: `expected 1..${INTENT_TEXT_MAX_LENGTH} characters` }),
  Schema.isPattern(/\S/u, { message: "must not be blank" })
)

/** The body of POST /v1/checkout/intents. */
export const CreateCheckoutIntentBody = Schema.Struct({
  amount: PositiveAmountMinor,
  currency: Currency.annotate({
    description: "The ISO 4217 code of the amount's currency, in upper case; the spend account's currency.",
    examples: ["USD"]
  }),
  merchant: Schema.Struct({
    name: IntentText.annotate({
      description: `The merchant to buy from; the card is locked to it (1..${INTENT_TEXT_MAX_LENGTH} characters).`,
      examples: ["Acme Cloud"]
    }),
    url: Schema.optionalKey(
      HttpUrl.annotate({
        description: "The merchant's web address (http or https).",
        examples: ["https://acme.example"]
      })
    ),
    mcc: Schema.optionalKey(MerchantCategoryCode),
    country: Schema.optionalKey(CountryCode)
  }).annotate({ description: "The merchant to buy from." }),
  purpose: IntentText.annotate({
    description: `Why the agent buys, shown to approvers (1..${INTENT_TEXT_MAX_LENGTH} characters).`,
    examples: ["Annual domain renewal"]
  }),
  expiresInSeconds: Schema.optionalKey(
    Schema.Int.check(
      Schema.isBetween(
        { minimum: MIN_INTENT_TTL_SECONDS, maximum: MAX_INTENT_TTL_SECONDS },
        { message: `expected an integer between ${MIN_INTENT_TTL_SECONDS} and ${MAX_INTENT_TTL_SECONDS} seconds` }
      )
    ).annotate({
      description: `Seconds until an unused intent expires, ${MIN_INTENT_TTL_SECONDS}..${MAX_INTENT_TTL_SECONDS} (default 1 hour).`,
      examples: [3600]
    })
  )
})

/** A checkout intent as answered (the domain's view of it, status as of now). */
export const CheckoutIntentResponse = CheckoutIntentView

/** The card of an intent: with `number` and `cvc` on the first answer only. */
export const CardCredentialsResponse = CardCredentials

const errors = [...CommonErrors, Forbidden, TooManyRequests] as const

/** Just-in-time purchase intents (spending keys and team API keys, by scope); their answers carry no card secret. */
export class CheckoutApi extends HttpApiGroup.make("checkout")
  .add(
    HttpApiEndpoint.post("create", "/v1/checkout/intents", {
      headers: IdempotencyKeyHeader,
      payload: CreateCheckoutIntentBody,
      success: CheckoutIntentResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(OpenApi.Summary, "Create a checkout intent")
      .annotate(
        OpenApi.Description,
        "Asks to buy `amount` (minor units, the spend account's currency) from one merchant. The key's policy decides as " +
          "for a spend request and counts the amount in its budgets: `approved` (ask for the card), `pending_approval` " +
          "(a person of the team decides in /treasury/approvals) or `denied`. No money moves until the card is " +
          "authorized. An unused intent expires after `expiresInSeconds` (60 s to 30 days, default 1 h). Requires the " +
          "`Idempotency-Key` header; a retry with the same key replays the first answer."
      ),
    HttpApiEndpoint.get("list", "/v1/checkout/intents", {
      query: { ...ListQuery, status: Schema.optionalKey(CheckoutIntentStatus) },
      success: ListOf(CheckoutIntentResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List checkout intents")
      .annotate(
        OpenApi.Description,
        "The team's checkout intents in the key's mode, newest first; `?status=` filters."
      ),
    HttpApiEndpoint.get("get", "/v1/checkout/intents/:id", {
      params: { id: UuidParam },
      success: CheckoutIntentResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a checkout intent")
      .annotate(OpenApi.Description, "One checkout intent. An unused intent past its deadline reads as `expired`."),
    HttpApiEndpoint.post("cancel", "/v1/checkout/intents/:id/cancel", {
      headers: IdempotencyKeyHeader,
      params: { id: UuidParam },
      success: CheckoutIntentResponse,
      error: [...errors, NotFound, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Cancel a checkout intent")
      .annotate(
        OpenApi.Description,
        "Ends a `pending_approval` or `approved` intent and closes its card if one was issued; its budget usage is given " +
          "back. 409 `checkout_intent_not_usable` once the card was authorized or the intent is final."
      )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

/**
 * The card of a checkout intent. Apart from the other POSTs under /v1 because its first answer carries the card number
 * and CVC, which the idempotency store must never hold: the route is idempotent by itself and ignores `Idempotency-Key`.
 */
export class CheckoutCredentialsApi extends HttpApiGroup.make("checkoutCredentials")
  .add(
    HttpApiEndpoint.post("credentials", "/v1/checkout/intents/:id/credentials", {
      params: { id: UuidParam },
      success: CardCredentialsResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Get the card of a checkout intent")
      .annotate(
        OpenApi.Description,
        "Issues the single-use virtual card of an `approved` intent, locked to its merchant and amount. The first answer " +
          "carries `number` and `cvc`, once: they are stored nowhere, not even for idempotent replays. Every later call " +
          "(an `Idempotency-Key` changes nothing) answers the same card without them. 409 `checkout_intent_not_usable` " +
          "when the intent is not approved (its `status` named), 503 `card_issuer_unavailable` when the card issuer " +
          "cannot be reached (retry: no card was kept)."
      )
  )
  .middleware(AgentAuth) {}

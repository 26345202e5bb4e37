import { CryptoAsset, CryptoNetwork, CryptoQuoteView, EXAMPLE_ID } from "@svc/domain/model"
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

/** The body of POST /v1/crypto/quotes. */
export const CreateCryptoQuoteBody = Schema.Struct({
  amount: Schema.Int.annotate({
    description: "What the payout costs, fees included, in US cents (a positive integer): 10000 is 100.00 USD",
    examples: [10000]
  }),
  // A string, not the literal: a literal field makes a mismatch fail the whole body instead of naming `currency`.
  currency: Schema.String.annotate({ description: "`USD`: payouts are quoted in USD only", examples: ["USD"] }),
  asset: CryptoAsset,
  network: CryptoNetwork,
  destinationId: UuidParam.annotate({
    description: "An allow-listed destination of the key's team and mode",
    examples: [EXAMPLE_ID]
  })
})

/** A quote as answered. */
export const CryptoQuoteResponse = CryptoQuoteView

const errors = [...CommonErrors, Forbidden, TooManyRequests, NotFound] as const

/** Quotes for crypto payouts (spending keys and team API keys, by scope). */
export class CryptoQuotesApi extends HttpApiGroup.make("cryptoQuotes")
  .add(
    HttpApiEndpoint.post("create", "/v1/crypto/quotes", {
      headers: IdempotencyKeyHeader,
      payload: CreateCryptoQuoteBody,
      success: CryptoQuoteResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Quote a crypto payout")
      .annotate(
        OpenApi.Description,
        "Prices paying `amount` US cents out as a stablecoin to an allow-listed destination of the key's mode: the service " +
          "fee (`max(minimum, ceil(amount × bps / 10000))`, by default 50 bps and at least 100 cents) and the network " +
          "fee estimate come out of the amount, and `amountDelivered` cents arrive as `tokenAmount` base units of the " +
          "asset (`decimals`). Valid 60 s (`expiresAt`), for one payout. 404 when the destination is not on the " +
          "allow-list in the key's mode; 400 naming the field for an asset the network does not carry, a destination of " +
          "another network or asset, or an amount not above the fees. An optional `Idempotency-Key` header makes a " +
          "retry replay the first answer."
      ),
    HttpApiEndpoint.get("get", "/v1/crypto/quotes/:id", {
      params: { id: UuidParam },
      success: CryptoQuoteResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a crypto quote")
      .annotate(OpenApi.Description, "A quote of the key's team and mode, with `payoutId` once a payout used it.")
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

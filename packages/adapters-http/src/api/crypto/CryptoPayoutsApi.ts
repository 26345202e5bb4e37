import { CryptoPayoutStatus, CryptoPayoutView, EXAMPLE_ID } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { IdempotencyKeyHeader, IdempotencyKeyRequired, Idempotent } from "../platform/index.ts"
import {
  AgentAuth,
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  TooManyRequests,
  Unprocessable,
  UuidParam
} from "../shared/index.ts"

/** The body of POST /v1/crypto/payouts: the quote to pay out. */
export const CreateCryptoPayoutBody = Schema.Struct({
  quoteId: Schema.String.check(Schema.isUUID()).annotate({
    description: "A quote from POST /v1/crypto/quotes",
    examples: [EXAMPLE_ID]
  })
})

/** A payout as answered (the domain's view: never the rail's signed transfer). */
export const CryptoPayoutResponse = CryptoPayoutView

const errors = [...CommonErrors, Forbidden, TooManyRequests, NotFound] as const

/** Crypto payouts of quotes to allow-listed destinations (spending keys and team API keys, by scope). */
export class CryptoPayoutsApi extends HttpApiGroup.make("cryptoPayouts")
  .add(
    HttpApiEndpoint.post("create", "/v1/crypto/payouts", {
      headers: IdempotencyKeyHeader,
      payload: CreateCryptoPayoutBody,
      success: CryptoPayoutResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(OpenApi.Summary, "Pay a quote out")
      .annotate(
        OpenApi.Description,
        "Pays a quote of the key out to its allow-listed destination. The policy decides as for a spend request: " +
          "`pending` holds the quote's amount and queues the transfer, `pending_approval` holds it and waits for a " +
          "person of the team, `denied` moves nothing; a quote is used by one payout, whatever the decision. The " +
          "worker then signs and broadcasts it (`submitted`, with `txHash`), and the hold is posted when the network " +
          "confirms it (`confirmed`) or released when it fails (`failed`). 404 for an unknown quote or a destination " +
          "removed since; 409 `quote_expired` or `quote_used`. Requires the `Idempotency-Key` header; a retry with the " +
          "same key replays the first answer."
      ),
    HttpApiEndpoint.get("list", "/v1/crypto/payouts", {
      query: { ...ListQuery, status: Schema.optionalKey(CryptoPayoutStatus) },
      success: ListOf(CryptoPayoutResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List crypto payouts")
      .annotate(OpenApi.Description, "The team's payouts in the key's mode, newest first (`?status=` to filter)."),
    HttpApiEndpoint.get("get", "/v1/crypto/payouts/:id", {
      params: { id: UuidParam },
      success: CryptoPayoutResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a crypto payout")
      .annotate(
        OpenApi.Description,
        "One payout of the team. A payout awaiting approval past its quote's or its approval's deadline reads as `expired`."
      ),
    HttpApiEndpoint.post("cancel", "/v1/crypto/payouts/:id/cancel", {
      headers: IdempotencyKeyHeader,
      params: { id: UuidParam },
      success: CryptoPayoutResponse,
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Cancel a crypto payout")
      .annotate(
        OpenApi.Description,
        "Withdraws a `pending_approval` or `pending` payout before the worker submits it; its hold is released. 409 " +
          "`payout_not_pending` once submitted or final."
      )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

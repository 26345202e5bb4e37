import { Mode, X402PaymentHeader, X402PaymentStatus, X402PaymentView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { IdempotencyKeyHeader, IdempotencyKeyRequired, Idempotent } from "../platform/index.ts"
import {
  AgentAuth,
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  TooManyRequests,
  Unprocessable,
  UuidParam
} from "../shared/index.ts"

/** The body of POST /v1/x402/payments: the resource asked for and the 402 answer it gave. */
export const CreateX402PaymentBody = Schema.Struct({
  resourceUrl: Schema.String.annotate({
    description: "The URL of the resource that answered 402 Payment Required (http or https).",
    examples: ["https://api.example.com/weather"]
  }),
  paymentRequired: Schema.Union([Schema.String, Schema.Record(Schema.String, Schema.Unknown)]).annotate({
    description:
      "The 402 answer: its JSON body (x402 v1: `{x402Version: 1, accepts: [...]}`), the decoded `PAYMENT-REQUIRED` header (v2: `{x402Version: 2, resource, accepts: [...]}`), or that header's base64 value as a string. The first requirement the service supports is paid."
  })
})

/** A payment as its agent sees it: the team's view and, once signed, the header to retry the resource with. */
export const X402PaymentResponse = Schema.Struct({
  ...X402PaymentView.fields,
  paymentHeader: Schema.NullOr(X402PaymentHeader).annotate({
    description:
      "The header to retry the resource with (`name: value`), while the payment is `signed` (and after it `settled`); null before it is signed and once it ended unpaid."
  })
})

/** The team's wallet for x402 payments in the key's mode. */
export const X402WalletResponse = Schema.Struct({
  object: Schema.Literal("x402_wallet").annotate({ description: "Always `x402_wallet`." }),
  mode: Mode,
  address: Schema.String.annotate({
    description: "The wallet's address (EIP-55): fund it with the tokens it pays in. Its key never leaves the service.",
    examples: ["0x52908400098527886E0F7030069857D2E4169EE7"]
  })
})

const errors = [...CommonErrors, Forbidden, TooManyRequests, NotFound] as const

/** x402 payments by the team's wallet (spending keys and team API keys, by scope). */
export class X402PaymentsApi extends HttpApiGroup.make("x402Payments")
  .add(
    HttpApiEndpoint.post("create", "/v1/x402/payments", {
      headers: IdempotencyKeyHeader,
      payload: CreateX402PaymentBody,
      success: X402PaymentResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(OpenApi.Summary, "Pay an x402 resource")
      .annotate(
        OpenApi.Description,
        "Pays a resource that answered 402 Payment Required, by the team's wallet. The policy decides as for a spend " +
          "request, in US cents at one dollar a stablecoin token (merchant `x402:<origin>:<payTo>`, category `x402`): " +
          "`signed` holds the amount and answers `paymentHeader`, the header to retry the resource with, valid for the " +
          "requirement's `maxTimeoutSeconds`; `pending_approval` holds it and signs once a person of the team approves " +
          "(then GET answers the header); `denied` signs nothing. The hold is posted once the authorization is seen used " +
          "on chain (`settled`) and released once it is past its deadline unused (`expired`). 400 names the field of " +
          "the 402 answer the service cannot pay. Requires the `Idempotency-Key` header; a retry with the same key " +
          "replays the first answer, and signs nothing again."
      ),
    HttpApiEndpoint.get("list", "/v1/x402/payments", {
      query: { ...ListQuery, status: Schema.optionalKey(X402PaymentStatus) },
      success: ListOf(X402PaymentView),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List x402 payments")
      .annotate(
        OpenApi.Description,
        "The team's x402 payments in the key's mode, newest first (`?status=` to filter), without their payment headers."
      ),
    HttpApiEndpoint.get("get", "/v1/x402/payments/:id", {
      params: { id: UuidParam },
      success: X402PaymentResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Get an x402 payment")
      .annotate(
        OpenApi.Description,
        "One x402 payment of the team, with its payment header once signed: an agent whose payment waited for " +
          "approval reads it here. A payment awaiting approval past its approval's deadline reads as `expired`."
      ),
    HttpApiEndpoint.get("wallet", "/v1/x402/wallet", {
      success: X402WalletResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get the x402 wallet")
      .annotate(
        OpenApi.Description,
        "The address of the team's wallet in the key's mode, which signs its x402 payments; made on first use."
      )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

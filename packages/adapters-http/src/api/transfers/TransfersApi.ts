import {
  PAYMENT_CODE_MEMO_MAX_LENGTH,
  PAYMENT_CODE_TTL_SECONDS,
  PaymentCodeView,
  PositiveAmountMinor,
  ReceiveAddressView,
  TRANSFER_MEMO_MAX_LENGTH,
  TransferDirection,
  TransferStatus,
  TransferView
} from "@svc/domain/model"
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

/** The body of POST /v1/transfers/payment-codes. */
export const CreatePaymentCodeBody = Schema.Struct({
  amount: Schema.optionalKey(
    PositiveAmountMinor.annotate({
      description:
        "The amount the code fixes, in USD minor units (1999 is 19.99 USD); omit it to let the sender choose.",
      examples: [1999]
    })
  ),
  currency: Schema.optionalKey(
    Schema.Literal("USD").annotate({
      message: "payment codes are in USD only",
      description: "`USD` (the default): payment codes are in USD only."
    })
  ),
  memo: Schema.optionalKey(
    Schema.String.check(
      Schema.isMaxLength(PAYMENT_CODE_MEMO_MAX_LENGTH, {
        message: `expected at most ${PAYMENT_CODE_MEMO_MAX_LENGTH} characters`
      })
    ).annotate({
      description: `The memo a transfer with the code carries (at most ${PAYMENT_CODE_MEMO_MAX_LENGTH} characters).`,
      examples: ["Invoice 2026-014"]
    })
  ),
  expiresInSeconds: Schema.optionalKey(
    Schema.Int.check(
      Schema.isBetween(
        { minimum: PAYMENT_CODE_TTL_SECONDS.minimum, maximum: PAYMENT_CODE_TTL_SECONDS.maximum },
        {
          message: `expected an integer between ${PAYMENT_CODE_TTL_SECONDS.minimum} and ${PAYMENT_CODE_TTL_SECONDS.maximum} seconds`
        }
      )
    ).annotate({
      description: `Seconds until the code expires, ${PAYMENT_CODE_TTL_SECONDS.minimum}..${PAYMENT_CODE_TTL_SECONDS.maximum} (default 7 days).`,
      examples: [86400]
    })
  )
})

/** A receive address as answered (the domain's view of it). */
export const ReceiveAddressResponse = ReceiveAddressView

/** A payment code as answered (the domain's view of it, status as of now). */
export const PaymentCodeResponse = PaymentCodeView

/** The body of POST /v1/transfers: to an address or to a payment code. */
export const CreateTransferBody = Schema.Struct({
  to: Schema.Union([
    Schema.Struct({
      address: Schema.String.check(Schema.isBetweenLength(1, 200)).annotate({
        description: "The recipient's receive address (1..200 characters).",
        examples: ["globex-p4m9@svc"]
      })
    }),
    Schema.Struct({
      paymentCode: Schema.String.check(Schema.isBetweenLength(1, 200)).annotate({
        description: "A payment code the recipient gave you (1..200 characters).",
        examples: ["PC-7H3K9QWZ"]
      })
    })
  ]).annotate({
    message: "expected {address} or {paymentCode}",
    description: "Who is paid: `{address}` or `{paymentCode}`."
  }),
  amount: PositiveAmountMinor,
  // A string, not the literal: a literal field makes a mismatch fail the whole body instead of naming `currency`.
  currency: Schema.String.annotate({ description: "`USD`: book transfers are in USD only", examples: ["USD"] }),
  memo: Schema.optionalKey(
    Schema.String.check(
      Schema.isMaxLength(TRANSFER_MEMO_MAX_LENGTH, {
        message: `expected at most ${TRANSFER_MEMO_MAX_LENGTH} characters`
      })
    ).annotate({
      description: `A note for the recipient (at most ${TRANSFER_MEMO_MAX_LENGTH} characters).`,
      examples: ["Invoice 2026-014"]
    })
  )
})

/** A transfer as the caller's team sees it (`direction` says which side it is on). */
export const TransferResponse = TransferView

const AddressParam = Schema.String.check(Schema.isMaxLength(200, { message: "expected at most 200 characters" }))

/** The `:address` parameter: a receive address. */
const ReceiveAddressParam = AddressParam.annotate({
  description: "A receive address (at most 200 characters).",
  examples: ["globex-p4m9@svc"]
})

/** The `:code` parameter: a payment code. */
const PaymentCodeParam = AddressParam.annotate({
  description: "A payment code (at most 200 characters).",
  examples: ["PC-7H3K9QWZ"]
})

const errors = [...CommonErrors, Forbidden, TooManyRequests, NotFound] as const

/** Book transfers, part one: receive addresses and payment codes (spending keys and team API keys, by scope). */
export class TransfersApi extends HttpApiGroup.make("transfers")
  .add(
    HttpApiEndpoint.get("receiveAddress", "/v1/transfers/receive-address", {
      success: ReceiveAddressResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get your receive address")
      .annotate(
        OpenApi.Description,
        "The credential's team's receive address in the credential's mode (`name-xxxx@svc` live, `name-xxxx@test.svc` test): " +
          "stable, given to the team when it was created."
      ),
    HttpApiEndpoint.get("resolveAddress", "/v1/transfers/receive-addresses/:address", {
      params: { address: ReceiveAddressParam },
      success: ReceiveAddressResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Resolve a receive address")
      .annotate(
        OpenApi.Description,
        "The team receiving at an address, to check before sending. 404 when unknown, and when the address is of the other " +
          "mode: a live key never reaches a test address and back."
      ),
    HttpApiEndpoint.post("createPaymentCode", "/v1/transfers/payment-codes", {
      headers: IdempotencyKeyHeader,
      payload: CreatePaymentCodeBody,
      success: PaymentCodeResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(OpenApi.Summary, "Create a payment code")
      .annotate(
        OpenApi.Description,
        "A single-use code (`PC-` and eight characters) paying to your team in the key's mode, optionally fixing the amount " +
          "(USD minor units) and memo; it expires after `expiresInSeconds` (60 s to 30 days, default 7 days). Requires the " +
          "`Idempotency-Key` header; a retry with the same key replays the first answer."
      ),
    HttpApiEndpoint.get("getPaymentCode", "/v1/transfers/payment-codes/:code", {
      params: { code: PaymentCodeParam },
      success: PaymentCodeResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Resolve a payment code")
      .annotate(
        OpenApi.Description,
        "The code's recipient, amount, memo and status as of now (`active`; `reserved` while an open transfer made with " +
          "it holds it; `used`; `expired`), for any key of the code's mode. 404 when unknown or of the other mode."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/transfers", {
      headers: IdempotencyKeyHeader,
      payload: CreateTransferBody,
      success: TransferResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict, Unprocessable]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(OpenApi.Summary, "Send a transfer")
      .annotate(
        OpenApi.Description,
        "Sends USD (minor units) to another team of the key's mode, at its receive address or payment code. The sender's " +
          "policy decides as for a spend request: `pending_acceptance` holds the amount until the recipient accepts, " +
          "`pending_approval` waits for a person of the sender's team, `denied` moves nothing. An open transfer made with a " +
          "payment code holds the code until it ends: a code already held, used or expired is refused with 409 " +
          "`payment_code_reserved`, `payment_code_used` or `payment_code_expired`. Requires the `Idempotency-Key` header; " +
          "a retry with the same key replays the first answer."
      ),
    HttpApiEndpoint.get("list", "/v1/transfers", {
      query: {
        ...ListQuery,
        status: Schema.optionalKey(TransferStatus),
        direction: Schema.optionalKey(TransferDirection)
      },
      success: ListOf(TransferResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List transfers")
      .annotate(
        OpenApi.Description,
        "The team's transfers in the key's mode, sent and received (`?direction=outgoing|incoming`), newest first."
      ),
    HttpApiEndpoint.get("get", "/v1/transfers/:id", {
      params: { id: UuidParam },
      success: TransferResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a transfer")
      .annotate(
        OpenApi.Description,
        "One transfer the team sent or received. An open transfer past its deadline reads as `expired`."
      ),
    ...(["accept", "decline", "cancel"] as const).map((name) =>
      HttpApiEndpoint.post(name, `/v1/transfers/:id/${name}`, {
        headers: IdempotencyKeyHeader,
        params: { id: UuidParam },
        success: TransferResponse,
        error: [...errors, Conflict, Unprocessable]
      })
        .annotate(RequiredScope, "spend.write")
        .annotate(
          OpenApi.Summary,
          name === "accept" ? "Accept a transfer" : name === "decline" ? "Decline a transfer" : "Cancel a transfer"
        )
        .annotate(
          OpenApi.Description,
          name === "accept"
            ? "The recipient takes a `pending_acceptance` transfer: the amount is credited to its USD spend account and " +
                "its payment code used, all or nothing (a refusal changes nothing)."
            : name === "decline"
              ? "The recipient refuses a `pending_acceptance` transfer; the sender's hold is released."
              : "The sender withdraws a `pending_approval` or `pending_acceptance` transfer; its hold is released."
        )
    )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

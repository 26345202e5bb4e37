import {
  BalanceAmounts,
  CreateSpendRequest,
  Currency,
  EXAMPLE_ID,
  PositiveAmountMinor,
  SpendDecision,
  SpendRequestView
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AnswersWithItsWork, IdempotencyKeyHeader, IdempotencyKeyRequired, Idempotent } from "../platform/index.ts"
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

/** The body of POST /v1/spend-requests: the domain's command, with its rules. */
export const CreateSpendRequestBody = CreateSpendRequest

/** A spend request as answered (the domain's view of it). */
export const SpendRequestResponse = SpendRequestView

const errors = [...CommonErrors, Forbidden, TooManyRequests, Conflict, Unprocessable] as const

/** Governed agent spend: spending keys and team API keys (by scope). */
export class SpendRequestsApi extends HttpApiGroup.make("spendRequests")
  .add(
    HttpApiEndpoint.post("create", "/v1/spend-requests", {
      headers: IdempotencyKeyHeader,
      payload: CreateSpendRequestBody,
      success: SpendRequestResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(IdempotencyKeyRequired, true)
      .annotate(AnswersWithItsWork, true)
      .annotate(OpenApi.Summary, "Create a spend request")
      .annotate(
        OpenApi.Description,
        "Asks to spend. Policy decides at once (`approved` posts to the ledger, `denied` moves nothing) or routes to a human " +
          "(`pending_approval` holds the amount). Requires the `Idempotency-Key` header; a retry with the same key replays the first answer."
      ),
    HttpApiEndpoint.get("list", "/v1/spend-requests", {
      query: { ...ListQuery, status: Schema.optionalKey(SpendRequestResponse.fields.status) },
      success: ListOf(SpendRequestResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List spend requests")
      .annotate(OpenApi.Description, "The credential's team's spend requests in its mode, newest first."),
    HttpApiEndpoint.get("get", "/v1/spend-requests/:id", {
      params: { id: UuidParam },
      success: SpendRequestResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a spend request")
      .annotate(
        OpenApi.Description,
        "One spend request. A pending request past its approval expiry reads as `expired`."
      ),
    HttpApiEndpoint.post("cancel", "/v1/spend-requests/:id/cancel", {
      headers: IdempotencyKeyHeader,
      params: { id: UuidParam },
      success: SpendRequestResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Cancel a spend request")
      .annotate(
        OpenApi.Description,
        "Cancels a `pending_approval` request and releases its hold. 409 when the request is final."
      )
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

/** The answer of a dry run: the outcome and reasons create would give now. */
export const SpendEvaluationResponse = SpendDecision

/**
 * The dry run of a spend request. A group of its own, without the `Idempotent` middleware: it writes nothing, not even
 * an idempotency record, so an `Idempotency-Key` header is ignored.
 */
export class SpendEvaluationApi extends HttpApiGroup.make("spendEvaluation")
  .add(
    HttpApiEndpoint.post("evaluate", "/v1/spend-requests/evaluate", {
      payload: CreateSpendRequestBody,
      success: SpendEvaluationResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Evaluate a spend request (dry run)")
      .annotate(
        OpenApi.Description,
        "Answers `{outcome, reasons}` as `POST /v1/spend-requests` would decide this body at this moment, each reason with " +
          "its figures (`limit`, `used`, `requested`, `remaining`, `interval`, `category`, `resetsAt`, `nextAllowedAt`, " +
          "`approvers`), and writes nothing: no request, no hold, no budget use, no request counted towards the velocity " +
          "limits, no idempotency record. Refused as create would refuse the body (400 naming the field). Rate limited " +
          "like every /v1 route. Another request may change the answer right after."
      )
  )
  .middleware(AgentAuth) {}

/** Test-mode helpers: only `svc_test_` keys (404 for live keys). */
export class TestHelpersApi extends HttpApiGroup.make("testHelpers")
  .add(
    HttpApiEndpoint.post("deposit", "/v1/test-helpers/deposits", {
      headers: IdempotencyKeyHeader,
      payload: Schema.Struct({
        amount: PositiveAmountMinor,
        currency: Currency.annotate({
          description: "The ISO 4217 code of the deposit's currency, in upper case; the account's currency.",
          examples: ["USD"]
        }),
        accountId: Schema.optionalKey(
          UuidParam.annotate({
            description: "The test-mode spend account to credit, a UUID; the key's account when omitted.",
            examples: [EXAMPLE_ID]
          })
        )
      }),
      success: Schema.Struct({
        object: Schema.Literal("deposit").annotate({ description: "Always `deposit`." }),
        accountId: Schema.String.annotate({
          description: "The account credited, a UUID.",
          examples: [EXAMPLE_ID]
        }),
        amount: Schema.Int.annotate({
          description: "The amount credited in minor units of the currency (1999 is 19.99 USD).",
          examples: [1999]
        }),
        currency: Schema.String.annotate({
          description: "The ISO 4217 code of the amount's currency.",
          examples: ["USD"]
        }),
        ledgerTransactionId: Schema.String.annotate({
          description: "The ledger transaction that posted the deposit, a UUID.",
          examples: [EXAMPLE_ID]
        }),
        balance: BalanceAmounts.annotate({ description: "The account's balance after the deposit, in minor units." })
      }).pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Deposit test funds")
      .annotate(OpenApi.Description, "Credits a test-mode spend account (default: the key's). Live keys get 404.")
  )
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

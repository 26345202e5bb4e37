import {
  ActivityItem,
  ActivityKind,
  type ApprovalSubjectType,
  ApprovalView,
  CheckoutIntentView,
  CryptoPayoutView,
  LedgerAccountView,
  LedgerTransactionView,
  Mode,
  SpendStats,
  TrailStep,
  TransferView,
  X402PaymentView
} from "@svc/domain/model"
import { Schema, Struct } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  DashboardAuth,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  UuidParam
} from "../shared/index.ts"
import { SpendRequestResponse } from "../spend/index.ts"

/** Any ledger account of the team: the /v1 account shape plus what the account is for. */
export const TreasuryAccount = LedgerAccountView

/**
 * A ledger transaction with its entries (credit positive, minor units); a crypto payout's (`code: "crypto_payout"`)
 * also carries the payout's on-chain `txHash` (null until it is submitted).
 */
export const LedgerTransactionResponse = Schema.Struct({
  ...LedgerTransactionView.fields,
  txHash: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** What each subject type's approval carries in `subject`. */
const ApprovalSubjects = {
  spend_request: SpendRequestResponse,
  transfer: TransferView,
  checkout_intent: CheckoutIntentView,
  crypto_payout: CryptoPayoutView,
  x402_payment: X402PaymentView
} as const satisfies Record<ApprovalSubjectType, Schema.Top>

/** The approval of one subject type: the approval's own fields, `subjectType` and that type's `subject`. */
const approvalOf = <const T extends ApprovalSubjectType>(subjectType: T) =>
  Schema.Struct({
    id: ApprovalView.fields.id,
    object: Schema.Literal("approval"),
    ...Struct.omit(ApprovalView.fields, ["id"]),
    subjectType: Schema.Literal(subjectType),
    subject: ApprovalSubjects[subjectType]
  })

/**
 * A human approval with what it decides as of now, discriminated by `subjectType`: `subject` holds the spend request,
 * the transfer (as its sender sees it), the checkout intent, the crypto payout or the x402 payment.
 */
export const ApprovalResponse = Schema.Union([
  approvalOf("spend_request"),
  approvalOf("transfer"),
  approvalOf("checkout_intent"),
  approvalOf("crypto_payout"),
  approvalOf("x402_payment")
])

/** One item of the activity list: a spend request, an outgoing transfer or a checkout intent of the team. */
export const ActivityItemResponse = ActivityItem

/** Each unrevoked key's daily spend over a window and its budget usage. */
export const SpendStatsResponse = SpendStats

/** An activity item with its trail and the ledger transactions it caused. */
export const ActivityDetailResponse = Schema.Struct({
  object: Schema.Literal("activity_detail"),
  item: ActivityItemResponse,
  trail: Schema.Array(TrailStep),
  ledgerTransactions: Schema.Array(LedgerTransactionResponse)
})

/** An ISO 8601 date-time with its offset, e.g. `2026-11-27T00:00:00Z`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/u
const DateTimeParam = Schema.String.check(
  Schema.isPattern(DATE_TIME, {
    message: "expected an ISO 8601 date-time with an offset, e.g. 2026-11-27T00:00:00Z"
  }),
  Schema.makeFilter((text: string) => !DATE_TIME.test(text) || !Number.isNaN(Date.parse(text)), {
    message: "expected a real instant"
  })
)

const StatsDays = Schema.NumberFromString.check(
  Schema.isInt({ message: "expected an integer between 1 and 90" }),
  Schema.isBetween({ minimum: 1, maximum: 90 }, { message: "expected an integer between 1 and 90" })
)

const Decision = Schema.Struct({ note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))) })
const errors = [...CommonErrors, Forbidden] as const

/** POST /treasury/approvals/:id/{approve|deny} with `{note?}`. */
const decision = <const Name extends "approve" | "deny">(name: Name, summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/treasury/approvals/:id/${name}`, {
    params: { id: UuidParam },
    payload: Decision,
    success: ApprovalResponse,
    error: [...errors, NotFound, Conflict]
  })
    .annotate(RequiredScope, "spend.write")
    .annotate(OpenApi.Summary, summary)
    .annotate(OpenApi.Description, description)

/** Team treasury: accounts, ledger and approvals, for sessions and OAuth tokens (by scope). */
export class TreasuryApi extends HttpApiGroup.make("treasury")
  .add(
    HttpApiEndpoint.get("accounts", "/treasury/accounts", {
      query: ListQuery,
      success: ListOf(TreasuryAccount),
      error: errors
    })
      .annotate(RequiredScope, "accounts.read")
      .annotate(OpenApi.Summary, "List ledger accounts")
      .annotate(OpenApi.Description, "Every ledger account of the team (both modes) with its balance."),
    HttpApiEndpoint.get("ledger", "/treasury/ledger", {
      query: { ...ListQuery, accountId: Schema.optionalKey(UuidParam) },
      success: ListOf(LedgerTransactionResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List ledger transactions")
      .annotate(OpenApi.Description, "The team's ledger transactions with their entries, newest first."),
    HttpApiEndpoint.get("approvals", "/treasury/approvals", {
      query: { ...ListQuery, status: Schema.optionalKey(ApprovalView.fields.status) },
      success: ListOf(ApprovalResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List approvals")
      .annotate(
        OpenApi.Description,
        "Approvals of the team's spend requests, transfers, checkout intents and crypto payouts, newest first; `?status=pending` for the queue."
      ),
    HttpApiEndpoint.get("activity", "/treasury/activity", {
      query: {
        ...ListQuery,
        kind: Schema.optionalKey(ActivityKind),
        status: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))),
        keyId: Schema.optionalKey(UuidParam),
        from: Schema.optionalKey(DateTimeParam),
        to: Schema.optionalKey(DateTimeParam),
        mode: Schema.optionalKey(Mode)
      },
      success: ListOf(ActivityItemResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List activity")
      .annotate(
        OpenApi.Description,
        "The team's spend requests, outgoing transfers and checkout intents in one list, newest first. Filters: `kind`, " +
          "`status` (the item's own status; kinds that never take it are left out, and a status no kind takes is a " +
          "400), `keyId` (the spending key), `from` (inclusive) and `to` (exclusive) on `createdAt`, `mode` (both " +
          "when absent)."
      ),
    HttpApiEndpoint.get("activityDetail", "/treasury/activity/:kind/:id", {
      params: { kind: ActivityKind, id: UuidParam },
      success: ActivityDetailResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get an activity item")
      .annotate(
        OpenApi.Description,
        "One item with its trail, oldest first (`requested`, `policy_evaluated` with the policy's reasons, " +
          "`approval_required`, each approver's step with their e-mail and note, `approved`/`denied`/`expired`/" +
          "`canceled`/`captured`), and the ledger transactions it caused. 404 for an unknown id or another team's."
      ),
    HttpApiEndpoint.get("spendStats", "/treasury/spend-stats", {
      query: { days: Schema.optionalKey(StatsDays), mode: Schema.optionalKey(Mode) },
      success: SpendStatsResponse,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Spend statistics per key")
      .annotate(
        OpenApi.Description,
        "Each unrevoked spending key of `mode` (default `live`): what it actually spent per UTC day of the last " +
          "`days` days (1 to 90, default 30; zeros included): approved spend requests, completed transfers and " +
          "captured checkout amounts, by the UTC day they were made; and `usedToday`/`usedThisMonth`, its approved " +
          "and pending spend as its daily and monthly budgets count it, with those budgets (null when none)."
      ),
    decision(
      "approve",
      "Approve a spend request, transfer or checkout intent",
      "Approves (owners and admins): a spend request's held amount is posted; a transfer goes on to its recipient for " +
        "acceptance; a checkout intent becomes `approved`, ready for its card. 409 when expired or already decided."
    ),
    decision(
      "deny",
      "Deny a spend request, transfer or checkout intent",
      "Denies (owners and admins): releases the hold (a checkout intent holds nothing; its budget usage is given back). " +
        "409 when expired or already decided."
    )
  )
  .middleware(DashboardAuth) {}

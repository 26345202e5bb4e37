import {
  ApprovalSubjectType,
  ApprovalView,
  CheckoutIntentView,
  CryptoPayoutView,
  LedgerAccountView,
  LedgerTransactionView,
  TransferView
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

/**
 * A human approval with what it decides as of now: `subjectType` says which, `spendRequest` holds a spend request,
 * `transfer` a transfer (as its sender sees it), `checkoutIntent` a checkout intent and `cryptoPayout` a crypto payout.
 */
export const ApprovalResponse = Schema.Struct({
  id: ApprovalView.fields.id,
  object: Schema.Literal("approval"),
  ...Struct.omit(ApprovalView.fields, ["id"]),
  subjectType: ApprovalSubjectType,
  spendRequest: Schema.optionalKey(SpendRequestResponse),
  transfer: Schema.optionalKey(TransferView),
  checkoutIntent: Schema.optionalKey(CheckoutIntentView),
  cryptoPayout: Schema.optionalKey(CryptoPayoutView)
})

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
      query: { ...ListQuery, status: Schema.optionalKey(ApprovalResponse.fields.status) },
      success: ListOf(ApprovalResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List approvals")
      .annotate(
        OpenApi.Description,
        "Approvals of the team's spend requests, transfers, checkout intents and crypto payouts, newest first; `?status=pending` for the queue."
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
  .middleware(DashboardAuth)
  .annotate(OpenApi.Description, "Treasury (dashboard)") {}

import { ApprovalRules, FreezeReason, SpendFreezeView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
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

const errors = [...CommonErrors, Forbidden] as const

/** The body of PUT /treasury/approval-rules, and its answer. */
export const ApprovalRulesBody = ApprovalRules.annotate({
  description:
    "The team's approval chain: tiers in strictly increasing `minAmount` (minor units). A request whose amount is at " +
    "or above the first tier's `minAmount` goes to approval (as does one at or above a policy's `approvalThreshold`); " +
    "the highest tier it reaches says how many distinct members (`approvals`) of which `roles` must approve, and with " +
    "`requireOwner` one of them must be the owner. Below every tier one owner or admin approves. Above the first tier " +
    "the member who created the request's key cannot be its only approver. Example: " +
    '`{"tiers": [{"minAmount": 5000, "approvals": 1, "roles": ["admin", "owner"]}, ' +
    '{"minAmount": 50000, "approvals": 2, "roles": ["admin", "owner"], "requireOwner": true}]}`'
})

/** POST /treasury/spend-freeze. */
export const FreezeBody = Schema.Struct({
  reason: FreezeReason.annotate({ description: "Why spending is frozen; recorded and sent with the event." }),
  spendingKeyId: Schema.optionalKey(
    UuidParam.annotate({ description: "Freeze only this key (a spending key or team API key); omit for the team." })
  )
})

/** The team's active freezes. */
export const ActiveFreezes = ListOf(SpendFreezeView)

/** Approval chains and the kill switch (dashboard). */
export class GovernanceApi extends HttpApiGroup.make("governance")
  .add(
    HttpApiEndpoint.get("getApprovalRules", "/treasury/approval-rules", { success: ApprovalRulesBody, error: errors })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get the approval chain")
      .annotate(OpenApi.Description, "The team's approval tiers (`{tiers: []}` when none are set)."),
    HttpApiEndpoint.put("setApprovalRules", "/treasury/approval-rules", {
      payload: ApprovalRulesBody,
      success: ApprovalRulesBody,
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Set the approval chain")
      .annotate(
        OpenApi.Description,
        "Replaces the team's approval tiers as a whole (owners and admins). 400 naming the field for unordered or " +
          "overlapping tiers, a role listed twice, `requireOwner` without the owner role, or a quorum larger than the " +
          "team's members holding the tier's roles (the message gives their number). Pending approvals keep the " +
          "quorum they were made with."
      ),
    HttpApiEndpoint.get("listSpendFreezes", "/treasury/spend-freeze", {
      query: ListQuery,
      success: ActiveFreezes,
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List active spend freezes")
      .annotate(OpenApi.Description, "The team's active freezes (its own and its keys'), newest first."),
    HttpApiEndpoint.post("freezeSpending", "/treasury/spend-freeze", {
      payload: FreezeBody,
      success: SpendFreezeView.pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Freeze spending (kill switch)")
      .annotate(
        OpenApi.Description,
        "Owners and admins freeze all new spending of the team, or of one key, at once: every money-moving create " +
          "(spend requests, transfers, checkout intents) is denied with reason `spending_frozen` until the freeze is " +
          "lifted; pending approvals stay pending but cannot be approved (409 `spending_frozen`); they can still be " +
          "denied. Sends `spend_freeze.created`. 409 `already_frozen` when that scope is frozen; 404 for a key that " +
          "is not a live key of the team."
      ),
    HttpApiEndpoint.delete("liftSpendFreeze", "/treasury/spend-freeze", {
      query: { spendingKeyId: Schema.optionalKey(UuidParam) },
      success: SpendFreezeView,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Lift a spend freeze")
      .annotate(
        OpenApi.Description,
        "Lifts the team's freeze (or `?spendingKeyId=` the key's); sends `spend_freeze.lifted`. 404 when that " +
          "scope is not frozen."
      )
  )
  .middleware(DashboardAuth) {}

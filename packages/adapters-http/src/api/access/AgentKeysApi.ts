import {
  MAX_POLICY_BYTES,
  Mode,
  PolicyVersionView,
  SPEND_SCOPES,
  SpendingKeyView,
  SpendPolicy,
  TeamApiKeyView
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  SessionAuth,
  UuidParam,
  WithSecret
} from "../shared/index.ts"

const Name = Schema.String.check(
  Schema.isBetweenLength(1, 100),
  Schema.isPattern(/\S/u, { message: "must not be blank" })
)

/** A spending key as listed: never its secret. */
export const SpendingKeyResponse = SpendingKeyView

/** A version of a key's policy or of the team's defaults. */
export const PolicyVersionResponse = PolicyVersionView

/** A team API key as listed: never its secret. */
export const TeamApiKeyResponse = TeamApiKeyView

const Revoked = Schema.Struct({ id: Schema.String, revoked: Schema.Literal(true) })
/** A spend policy as the forms show it, with an example of budget intervals, category budgets and velocity limits. */
const PolicyForm = SpendPolicy.annotate({
  examples: [
    {
      perRequestLimit: 50_000,
      dailyBudget: 20_000,
      weeklyBudget: 80_000,
      monthlyBudget: 200_000,
      yearlyBudget: 1_500_000,
      lifetimeBudget: 5_000_000,
      categoryBudgets: [{ category: "travel", interval: "month", amount: 50_000 }],
      maxRequestsPerHour: 10,
      maxRequestsPerDay: 100,
      approvalThreshold: 5_000
    }
  ]
})
const PolicyBody = Schema.Struct({ policy: PolicyForm })
const errors = [...CommonErrors, Forbidden] as const

/** Issuing and revoking agent credentials, and the team's default spend policy: session only, owners and admins. */
export class AgentKeysApi extends HttpApiGroup.make("agentKeys")
  .add(
    HttpApiEndpoint.post("createSpendingKey", "/treasury/spending-keys", {
      payload: Schema.Struct({ name: Name, mode: Mode, accountId: Schema.optionalKey(UuidParam), policy: PolicyForm }),
      success: WithSecret(SpendingKeyResponse).pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(OpenApi.Summary, "Create a spending key")
      .annotate(
        OpenApi.Description,
        "Issues a spending key (`svc_` live, `svc_test_` test). The secret is returned once."
      ),
    HttpApiEndpoint.get("listSpendingKeys", "/treasury/spending-keys", {
      query: ListQuery,
      success: ListOf(SpendingKeyResponse),
      error: errors
    })
      .annotate(OpenApi.Summary, "List spending keys")
      .annotate(OpenApi.Description, "The team's spending keys, newest first (never their secrets)."),
    HttpApiEndpoint.patch("updateSpendingKey", "/treasury/spending-keys/:id", {
      params: { id: UuidParam },
      payload: PolicyBody,
      success: SpendingKeyResponse,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Update a spending key's policy")
      .annotate(
        OpenApi.Description,
        "Replaces a live key's policy; the next request is decided by it. Each change is a new immutable policy " +
          `version (\`policyVersion\` counts them) and an audit entry; a policy over ${MAX_POLICY_BYTES} bytes of JSON is a 400.`
      ),
    HttpApiEndpoint.get("listPolicyVersions", "/treasury/spending-keys/:id/policy-versions", {
      params: { id: UuidParam },
      query: ListQuery,
      success: ListOf(PolicyVersionResponse),
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "List a spending key's policy versions")
      .annotate(
        OpenApi.Description,
        "Every version of the key's own policy (`subject: spending_key`) and of the team's default policy " +
          "(`subject: team`), newest first: who set it, when, and the whole policy. A decision's " +
          "`decision.policyVersions: {spendingKey, team}` names the two it was made under; the key's policy over the " +
          "team's is the policy that was applied. Revoked keys keep their versions."
      ),
    HttpApiEndpoint.delete("revokeSpendingKey", "/treasury/spending-keys/:id", {
      params: { id: UuidParam },
      success: Revoked,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Revoke a spending key")
      .annotate(OpenApi.Description, "Revokes a spending key; the next request with it gets 401."),
    HttpApiEndpoint.post("createTeamApiKey", "/treasury/team-api-keys", {
      payload: Schema.Struct({
        name: Name,
        mode: Mode,
        scopes: Schema.Array(Schema.Literals(SPEND_SCOPES)).check(
          Schema.isMinLength(1, { message: "at least one scope" })
        )
      }),
      success: WithSecret(TeamApiKeyResponse).pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(OpenApi.Summary, "Create a team API key")
      .annotate(
        OpenApi.Description,
        "Issues a team API key (`svcteam_`) with scopes for /v1. The secret is returned once."
      ),
    HttpApiEndpoint.get("listTeamApiKeys", "/treasury/team-api-keys", {
      query: ListQuery,
      success: ListOf(TeamApiKeyResponse),
      error: errors
    })
      .annotate(OpenApi.Summary, "List team API keys")
      .annotate(OpenApi.Description, "The team's team API keys, newest first (never their secrets)."),
    HttpApiEndpoint.delete("revokeTeamApiKey", "/treasury/team-api-keys/:id", {
      params: { id: UuidParam },
      success: Revoked,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Revoke a team API key")
      .annotate(OpenApi.Description, "Revokes a team API key; the next request with it gets 401."),
    HttpApiEndpoint.get("getSpendPolicy", "/treasury/spend-policy", {
      success: PolicyBody,
      error: errors
    })
      .annotate(OpenApi.Summary, "Get the team spend policy")
      .annotate(OpenApi.Description, "The team's default spend policy, applied where a key's policy is silent."),
    HttpApiEndpoint.put("setSpendPolicy", "/treasury/spend-policy", {
      payload: PolicyBody,
      success: PolicyBody,
      error: errors
    })
      .annotate(OpenApi.Summary, "Set the team spend policy")
      .annotate(
        OpenApi.Description,
        "Replaces the team's default spend policy as its next immutable version (listed with each key's policy " +
          `versions) and an audit entry; a policy over ${MAX_POLICY_BYTES} bytes of JSON is a 400.`
      )
  )
  .middleware(SessionAuth) {}

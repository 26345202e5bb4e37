import { HttpApi, OpenApi } from "effect/http-api"
import { AgentKeysApi } from "./access/AgentKeysApi.ts"
import { ApiKeysApi } from "./access/ApiKeysApi.ts"
import { MeApi, TeamsApi } from "./identity/TeamsApi.ts"
import { AccountsApi } from "./ledger/AccountsApi.ts"
import { OAuthApi } from "./oauth/OAuthApi.ts"
import { WellKnownApi } from "./oauth/WellKnownApi.ts"
import { SystemApi } from "./platform/SystemApi.ts"
import { RequestValidation } from "./shared/Validation.ts"
import { SpendRequestsApi, TestHelpersApi } from "./spend/SpendRequestsApi.ts"
import { TreasuryApi } from "./treasury/TreasuryApi.ts"
import { WebhookEndpointsApi } from "./webhooks/WebhookEndpointsApi.ts"

/** The service's HTTP contract: shared by the server, the OpenAPI document and the SDK. */
export class Api extends HttpApi.make("svc")
  .add(SystemApi)
  .add(TeamsApi)
  .add(MeApi)
  .add(AccountsApi)
  .add(SpendRequestsApi)
  .add(TestHelpersApi)
  .add(TreasuryApi)
  .add(AgentKeysApi)
  .add(OAuthApi)
  .add(WellKnownApi)
  .add(ApiKeysApi)
  .add(WebhookEndpointsApi)
  .middleware(RequestValidation)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotate(HttpApi.ParamsParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Governed agent spend and business-finance API",
      version: "0.0.1",
      description:
        "Agents ask to spend a team's money; policy, budgets and human approvals decide; a double-entry ledger moves it. " +
        "Errors are JSON `{error, code, message}`; validation errors add `details: [{path, message}]`."
    })
  ) {}

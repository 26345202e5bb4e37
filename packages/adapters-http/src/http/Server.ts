import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { AgentKeysHttp } from "./access/AgentKeysHttp.ts"
import { ApiKeysHttp } from "./access/ApiKeysHttp.ts"
import { MeHttp, TeamsHttp } from "./identity/TeamsHttp.ts"
import { AccountsHttp } from "./ledger/AccountsHttp.ts"
import { AuthenticationLive } from "./middleware/Authentication.ts"
import { ErrorHandlingLive } from "./middleware/ErrorHandling.ts"
import { OAuthGuardLive } from "./middleware/OAuthGuard.ts"
import { OAuthHttp } from "./oauth/OAuthHttp.ts"
import { WellKnownHttp } from "./oauth/WellKnownHttp.ts"
import { SystemHttp } from "./platform/SystemHttp.ts"
import { SpendRequestsHttp, TestHelpersHttp } from "./spend/SpendRequestsHttp.ts"
import { TreasuryHttp } from "./treasury/TreasuryHttp.ts"
import { WebhookEndpointsHttp } from "./webhooks/WebhookEndpointsHttp.ts"

/** Every route of the API, its OpenAPI document at /openapi.json and the reference page at /docs. */
export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([
    SystemHttp,
    TeamsHttp,
    MeHttp,
    AccountsHttp,
    SpendRequestsHttp,
    TestHelpersHttp,
    TreasuryHttp,
    AgentKeysHttp,
    OAuthHttp,
    WellKnownHttp,
    ApiKeysHttp,
    WebhookEndpointsHttp
  ]),
  Layer.provide(AuthenticationLive),
  Layer.provide(OAuthGuardLive),
  Layer.provide(ErrorHandlingLive),
  Layer.merge(HttpApiScalar.layer(Api, { path: "/docs" }))
)

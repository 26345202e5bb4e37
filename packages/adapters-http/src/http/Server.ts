import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { AccountsHttp } from "./AccountsHttp.ts"
import { AgentKeysHttp } from "./AgentKeysHttp.ts"
import { ApiKeysHttp } from "./ApiKeysHttp.ts"
import { AuthenticationLive } from "./Authentication.ts"
import { ErrorHandlingLive } from "./ErrorHandling.ts"
import { OAuthGuardLive } from "./OAuthGuard.ts"
import { OAuthHttp } from "./OAuthHttp.ts"
import { SpendRequestsHttp, TestHelpersHttp } from "./SpendRequestsHttp.ts"
import { SystemHttp } from "./SystemHttp.ts"
import { MeHttp, TeamsHttp } from "./TeamsHttp.ts"
import { TreasuryHttp } from "./TreasuryHttp.ts"
import { WebhookEndpointsHttp } from "./WebhookEndpointsHttp.ts"
import { WellKnownHttp } from "./WellKnownHttp.ts"

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

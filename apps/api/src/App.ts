import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  ApiRoutes,
  DashboardRoutes,
  IdempotencyLive,
  PublicBaseUrl,
  type Readiness,
  ReadYourWritesHttp,
  RequestMetrics,
  ResolvedAgents,
  SecurityHeaders,
  SessionTokens
} from "@svc/adapters-http"
import { layerHttp as mcpOverHttp } from "@svc/adapters-mcp"
import { PortsMemory } from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import { InboundWebhookRoutes, WebhookServicesLive, WebhookWorkersLive } from "@svc/adapters-webhooks"
import { CursorKey, FileKeys, FileLinks } from "@svc/domain"
import { Layer, Redacted } from "effect"
import { DEFAULT_DASHBOARD_DIR, type ServiceConfig } from "./Config.ts"
import { desktopReleases } from "./config/DesktopConfig.ts"
import { domainServices } from "./Domain.ts"
import { clientAddress, McpCallers, OAuthRateLimits, RateLimits } from "./Http.ts"
import { MetricsLive } from "./Observability.ts"
import { AlwaysReady, type Ports, SqlReadiness } from "./Persistence.ts"
import { webhooksSettings } from "./Webhooks.ts"
import { backgroundJobs, PurgeJobs } from "./Workers.ts"

/**
 * The composition root: the HTTP application over the domain services, each concern assembled in the module beside
 * this one (`Config.ts` reads the environment, `Domain.ts` the services, `Persistence.ts`, `Mail.ts`, `Payments.ts`,
 * `Integrations.ts`, `Http.ts`, `Webhooks.ts` and `Workers.ts` the adapters and jobs each chooses).
 */

export { databaseConfig, jobsLeaderConfig, type ServiceConfig, serviceConfig } from "./Config.ts"
export { domainServices } from "./Domain.ts"
export { clientAddress } from "./Http.ts"
export { contendForJobs, JobsLeadership, JobsLeadershipLive } from "./Leadership.ts"
export { signInSettings } from "./Mail.ts"
export { TracingLive } from "./Observability.ts"
export { cryptoFees, evmRail, payoutRail } from "./Payments.ts"
export type { Ports } from "./Persistence.ts"
export { Sha256Node } from "./Sha256Node.ts"
export { webhooksSettings } from "./Webhooks.ts"

/** The session keys: the current secret and, while set, the one before the last rotation. */
const sessionTokens = (config: ServiceConfig) =>
  SessionTokens.layer(
    [
      config.sessionJwtSecret,
      ...(config.sessionJwtPreviousSecret === undefined ? [] : [config.sessionJwtPreviousSecret])
    ],
    config.sessionMaxLifetimeSeconds
  )

/** The HTTP application over the given ports and readiness check; the client address is resolved first (built first). */
export const appLayer = <E, R, R2>(
  config: ServiceConfig,
  ports: Layer.Layer<Ports, E, R>,
  readiness: Layer.Layer<Readiness, never, R2>
) =>
  Layer.mergeAll(
    MetricsLive,
    SecurityHeaders,
    config.readAfterWrite === undefined ? Layer.empty : ReadYourWritesHttp(config.readAfterWrite),
    RateLimits,
    PurgeJobs,
    InboundWebhookRoutes,
    DashboardRoutes(config.dashboardDir ?? DEFAULT_DASHBOARD_DIR).pipe(Layer.provide(NodeHttpServer.layerHttpServices)),
    mcpOverHttp({ publicBaseUrl: config.publicBaseUrl }).pipe(Layer.provide(McpCallers)),
    backgroundJobs(WebhookWorkersLive)
  ).pipe(
    // Global middlewares nest in the order they are added: the request metrics go inside the routes' JSON error
    // handling (so they see the matched route) and outside the rate limit (so they count its 429s).
    Layer.provide(
      RequestMetrics.pipe(Layer.provide(ApiRoutes.pipe(Layer.provide([IdempotencyLive, OAuthRateLimits]))))
    ),
    // One cache of resolved agents for the server: the rate limit fills it, the agents' authentication reads it.
    Layer.provide(ResolvedAgents.layer),
    Layer.provide(WebhookServicesLive),
    Layer.provide(domainServices(config, ports)),
    Layer.provide([
      sessionTokens(config),
      FileKeys.layer(Redacted.value(config.fileKeySecret)),
      CursorKey.layer(Redacted.value(config.cursorSigningKey)),
      FileLinks.layer(Redacted.value(config.presignedUrlKey ?? config.fileKeySecret)),
      Layer.succeed(PublicBaseUrl, config.publicBaseUrl),
      webhooksSettings,
      desktopReleases,
      readiness
    ]),
    Layer.provide(clientAddress)
  )

/** The application on Postgres (needs a SqlClient). */
export const appOnPostgres = (config: ServiceConfig) => appLayer(config, PortsPg, SqlReadiness)

/** The application on the in-memory adapters: no database at all (tests, demos). */
export const appInMemory = (config: ServiceConfig) => appLayer(config, PortsMemory, AlwaysReady)

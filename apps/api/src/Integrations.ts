import { DashboardUrl } from "@svc/adapters-http"
import { ChatMessagingHttp, ChatPlatformHttp, MailProviderHttp, MailStateJwe } from "@svc/adapters-integrations"
import {
  ChatApp,
  ChatApprovalButtons,
  ChatApprovals,
  ChatApprovalsJob,
  MailConnection,
  SealedSecrets
} from "@svc/domain"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import type { ServiceConfig } from "./Config.ts"
import {
  chatAppConfig,
  DEFAULT_CHAT_API_URL,
  dashboardUrl,
  integrationSecretsKey,
  mailAppConfig
} from "./config/IntegrationsConfig.ts"
import { webhookDestinations } from "./Webhooks.ts"
import { backgroundJobs } from "./Workers.ts"

/** What the integrations share: the key their secrets are sealed and their states signed under, and the dashboard. */
class IntegrationSettings extends Context.Service<
  IntegrationSettings,
  {
    readonly secretsKey: Redacted.Redacted<string>
    /** Where integrations send the browser back once connected, without a trailing slash. */
    readonly dashboardUrl: string
  }
>()("@svc/api/IntegrationSettings") {}

/** What the log says when `INTEGRATION_SECRETS_KEY` is unset. */
export const integrationSecretsKeyWarning =
  "INTEGRATION_SECRETS_KEY is unset: integration secrets are sealed under a key derived from the session secret"

/** The key integration secrets are sealed under when `INTEGRATION_SECRETS_KEY` is unset: derived from the session's. */
export const derivedIntegrationSecretsKey = (sessionSecret: Redacted.Redacted): Redacted.Redacted =>
  Redacted.make(`integration-secrets:${Redacted.value(sessionSecret)}`)

/**
 * What every integration shares, read once (`IntegrationSettings`): `SealedSecrets` under `INTEGRATION_SECRETS_KEY` (by
 * default a key derived from the session secret, with a warning, so a fresh start works; set it, as the sealed tokens
 * die with that secret) and `DASHBOARD_URL` (`PUBLIC_BASE_URL/dashboard` unless given).
 */
export const integrationsFoundation = (config: ServiceConfig) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* integrationSecretsKey
      if (Option.isNone(configured)) yield* Effect.logWarning(integrationSecretsKeyWarning)
      const key = Option.getOrElse(configured, () => derivedIntegrationSecretsKey(config.sessionJwtSecret))
      return Layer.merge(
        SealedSecrets.layer(key),
        Layer.succeed(IntegrationSettings, { secretsKey: key, dashboardUrl: yield* dashboardUrl(config.publicBaseUrl) })
      )
    })
  )

/**
 * The mailbox connection (ADR 0035): the mail provider over HTTP as configured by `MAIL_*` (not configured without a
 * client id and secret), states as JWEs and tokens sealed under the integration key.
 */
const mailIntegration = (config: ServiceConfig) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const { secretsKey, dashboardUrl } = yield* IntegrationSettings
      const settings = yield* mailAppConfig(`${config.publicBaseUrl}/apps/mail/oauth-callback`)
      return Layer.merge(MailConnection.layer, Layer.succeed(DashboardUrl, dashboardUrl)).pipe(
        Layer.provide([
          MailProviderHttp.layer(settings).pipe(Layer.provide(FetchHttpClient.layer)),
          MailStateJwe.layer(secretsKey)
        ])
      )
    })
  )

/**
 * The chat platform app (ADR 0034) from `CHAT_CLIENT_ID` and `CHAT_CLIENT_SECRET`, over the platform's Web API at
 * `CHAT_OAUTH_AUTHORIZE_URL`, `CHAT_OAUTH_TOKEN_URL` and `CHAT_API_URL`, asking for `CHAT_BOT_SCOPES`; unconfigured
 * (its routes answer 503) while either credential is unset.
 */
const chatApp = (config: ServiceConfig) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* chatAppConfig
      if (Option.isNone(configured)) return ChatApp.unconfigured
      const { clientId, clientSecret, authorizeUrl, tokenUrl, apiUrl, scopes } = configured.value
      const { secretsKey, dashboardUrl } = yield* IntegrationSettings
      const platform = ChatPlatformHttp.layer({ clientId, clientSecret, tokenUrl, apiUrl }).pipe(
        Layer.provide(FetchHttpClient.layer)
      )
      return ChatApp.layer({
        clientId,
        authorizeUrl,
        scopes,
        redirectUri: `${config.publicBaseUrl}/apps/chat/oauth-callback`,
        installedUrl: `${dashboardUrl}/settings/integrations?chat=installed`,
        stateKey: secretsKey
      }).pipe(Layer.provide(platform))
    })
  )

/**
 * Approvals in the teams' chat channels: the pass and posting job every `chatApprovalsIntervalMs`, and the buttons
 * pressed there, over the platform's Web API at `chatApiUrl`; answers to presses go to their response URLs only where
 * webhook deliveries may go (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`).
 */
const chatApprovals = (config: ServiceConfig) =>
  Layer.merge(
    ChatApprovalButtons.layer,
    backgroundJobs(ChatApprovalsJob(`${config.chatApprovalsIntervalMs ?? 2_000} millis`))
  ).pipe(
    Layer.provideMerge(ChatApprovals.layer),
    Layer.provideMerge(
      ChatMessagingHttp.layer({ apiUrl: config.chatApiUrl ?? DEFAULT_CHAT_API_URL }).pipe(
        Layer.provide([FetchHttpClient.layer, webhookDestinations])
      )
    )
  )

/** The integrations over the shared foundation: the chat app and its approvals, and the mailbox connection. */
export const integrations = (config: ServiceConfig) =>
  Layer.merge(chatApprovals(config).pipe(Layer.provideMerge(chatApp(config))), mailIntegration(config))

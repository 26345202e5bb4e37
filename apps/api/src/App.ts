import { fileURLToPath } from "node:url"
import { NodeHttpServer } from "@effect/platform-node"
import { EvmRail } from "@svc/adapters-evm"
import { FileStorageFs, MailerFs } from "@svc/adapters-fs"
import {
  ApiRoutes,
  ClientAddress,
  DashboardRoutes,
  DashboardUrl,
  IdempotencyLive,
  InvoiceRendererPdf,
  PublicBaseUrl,
  RateLimitSignIn,
  RateLimitV1,
  Readiness,
  RequestMetrics,
  SecurityHeaders,
  SessionTokens,
  UnknownCredentialLimiter
} from "@svc/adapters-http"
import {
  ChatMessagingHttp,
  ChatPlatformHttp,
  MailProviderHttp,
  MailStateJwe,
  mailAppSettings,
  SmtpMailer,
  type SmtpSettings,
  smtpSettings
} from "@svc/adapters-integrations"
import { CallerCredentials, layerHttp as mcpOverHttp } from "@svc/adapters-mcp"
import {
  FileStorageMemory,
  PortsMemory,
  RateLimiterMemory,
  SimulatedCardIssuer,
  SimulatedPaymentsProvider,
  SimulatedPayoutRail
} from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import {
  InboundWebhookRoutes,
  WebhookDestinationsLive,
  WebhookServicesLive,
  WebhookWorkersLive
} from "@svc/adapters-webhooks"
import {
  Activity,
  AgentCredentials,
  AgentCredentialsLive,
  AgentKeys,
  ApiKeys,
  ApprovalChains,
  AuditLog,
  AuthorizationDeadline,
  AuthorizationTolerance,
  BankAccounts,
  CardAuthorizations,
  CardNumberKey,
  Categories,
  ChatApp,
  ChatApprovalButtons,
  ChatApprovals,
  ChatApprovalsJob,
  Checkout,
  CryptoDestinations,
  CryptoPayouts,
  CryptoQuotes,
  CursorKey,
  Customers,
  cryptoFeesFromConfig,
  DashboardSessionsPurgeJob,
  DashboardSignIn,
  type DashboardSignInSettings,
  DEFAULT_ACCEPTANCE_TTL_SECONDS,
  DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
  DEFAULT_MAX_FILE_BYTES,
  Documents,
  ExchangeRateTable,
  FileAccess,
  FileKeys,
  IdempotencyPurgeJob,
  Inbox,
  InstallNoncesPurgeJob,
  Invoices,
  Ledger,
  MailConnection,
  MaxFileBytes,
  Notifications,
  NotificationsJob,
  OAuth,
  OAuthApplications,
  OAuthPurgeJob,
  PaymentCodes,
  type PayoutRail,
  RateLimiter,
  RateLimitPruneJob,
  ReceiveAddresses,
  Reports,
  SealedSecrets,
  Search,
  SignInLinksJob,
  SpendFreezes,
  SpendRequests,
  Tags,
  TeamCredentialsLive,
  TeamManagement,
  TeamOpening,
  Teams,
  Tracker,
  Transactions,
  TransferAcceptanceTtl,
  Transfers,
  Users,
  WebhookPurgeJob
} from "@svc/domain"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { SqlClient } from "effect/sql"
import { MetricsLive } from "./Observability.ts"

export { TracingLive } from "./Observability.ts"
export { Sha256Node } from "./Sha256Node.ts"

/** What the service reads from its environment. */
export interface ServiceConfig {
  readonly sessionJwtSecret: Redacted.Redacted
  /** The secret sessions were signed with before the last rotation, still accepted while set. */
  readonly sessionJwtPreviousSecret?: Redacted.Redacted
  /** The longest a session token may still be valid when presented (`exp` at most this far ahead). */
  readonly sessionMaxLifetimeSeconds: number
  readonly fileKeySecret: Redacted.Redacted
  /** The key list cursors are signed with. */
  readonly cursorSigningKey: Redacted.Redacted
  readonly publicBaseUrl: string
  /** How often pending approvals past their TTL, and transfers past their acceptance deadline, are expired. */
  readonly approvalSweepIntervalSeconds: number
  /** How long a recipient has to accept a transfer before it expires. */
  readonly transferAcceptanceTtlSeconds: number
  /** What a card authorization may exceed its checkout intent by (tips, tax), in minor units. */
  readonly cardAuthToleranceMinor: number
  /** How long a card authorization decision may take before it is answered DECLINED. */
  readonly cardAuthDeadlineMs: number
  /** The key card numbers are hashed under (to recognise a card without keeping its number). */
  readonly cardNumberKey: Redacted.Redacted
  /** How often new outbox events are turned into notifications (1 s unless given). */
  readonly notificationIntervalMs?: number
  /** Where files are stored on disk; in memory when absent (tests, demos). */
  readonly fileStorageDir?: string
  /** The largest file stored (uploads, inbox attachments), 25 MiB unless given. */
  readonly maxFileBytes?: number
  /** How often the crypto payout worker submits queued payouts and reconciles submitted ones (5 s unless given). */
  readonly cryptoWorkerIntervalSeconds?: number
  /** The chat platform's Web API base (`CHAT_API_URL`), where approval messages are posted. */
  readonly chatApiUrl?: string
  /** How often approval requests are brought to the teams' chat channels (2 s unless given). */
  readonly chatApprovalsIntervalMs?: number
  /** The built dashboard served at /dashboard (`DASHBOARD_DIR`; the workspace's `apps/dashboard/dist` unless given). */
  readonly dashboardDir?: string
  /** How long a dashboard session lives (12 h unless given). */
  readonly dashboardSessionTtlSeconds?: number
  /** How often the sign-in pass mails the links asked for since its last run (250 ms unless given). */
  readonly signInLinkIntervalMs?: number
  /** Where mail is written as JSON files (`MAIL_OUTBOX_DIR`) instead of the log; tests read sign-in links there. */
  readonly mailOutboxDir?: string
  /** The SMTP server mail is sent through (`SMTP_URL`, from `SMTP_FROM`); it wins over `MAIL_OUTBOX_DIR`. */
  readonly smtp?: SmtpSettings
}

/** How often the sign-in pass runs unless `SIGN_IN_LINK_INTERVAL_MS` says otherwise: a link arrives within about this. */
const DEFAULT_SIGN_IN_LINK_INTERVAL_MS = 250

/** Where `npm run build:dashboard` puts the dashboard. */
const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../dashboard/dist", import.meta.url))

/** The chat platform's Web API unless `CHAT_API_URL` says otherwise. */
const DEFAULT_CHAT_API_URL = "https://slack.com/api"

/** A whole number from the environment within `minimum..maximum`, or `fallback`; a bad value names the variable. */
const wholeNumber = (name: string, fallback: number, minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  Config.schema(
    Schema.FiniteFromString.check(
      Schema.isInt(),
      Schema.isBetween(
        { minimum, maximum },
        { message: `${name} must be a whole number from ${minimum} to ${maximum}` }
      )
    ),
    name
  ).pipe(Config.withDefault(fallback))

/**
 * The SMTP settings when `SMTP_URL` is set (`smtp://user:password@host:port` or `smtps://…`), sending from `SMTP_FROM`
 * (`no-reply@` the public host unless given); a URL that cannot be used stops the service at start.
 */
const smtpConfig = (publicBaseUrl: string) =>
  Effect.gen(function* () {
    const url = yield* Config.option(Config.Redacted("SMTP_URL"))
    if (Option.isNone(url)) return Option.none<SmtpSettings>()
    const host = new URL(publicBaseUrl).hostname
    const from = yield* Config.String("SMTP_FROM").pipe(Config.withDefault(`no-reply@${host}`))
    return yield* Effect.sync(() => Option.some(smtpSettings(Redacted.value(url.value), from, host)))
  })

/** Reads the service configuration; a missing SESSION_JWT_SECRET gets a random one (sessions then die with the process). */
export const serviceConfig = Effect.gen(function* () {
  const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))
  const configured = yield* Config.option(Config.Redacted("SESSION_JWT_SECRET"))
  if (Option.isNone(configured)) {
    yield* Effect.logWarning(
      "SESSION_JWT_SECRET is unset: using a random secret, so session tokens cannot be minted outside"
    )
  }
  const sessionJwtSecret = Option.getOrElse(configured, () => Redacted.make(crypto.randomUUID() + crypto.randomUUID()))
  const sessionJwtPreviousSecret = yield* Config.option(Config.Redacted("SESSION_JWT_PREVIOUS_SECRET"))
  const sessionMaxLifetimeSeconds = yield* Config.Int("SESSION_MAX_LIFETIME_SECONDS").pipe(Config.withDefault(86_400))
  const fileKeySecret = yield* Config.Redacted("FILE_KEY_SECRET").pipe(Config.withDefault(sessionJwtSecret))
  const cursorSigningKey = yield* Config.Redacted("CURSOR_SIGNING_KEY").pipe(Config.withDefault(fileKeySecret))
  const publicBaseUrl = yield* Config.String("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const approvalSweepIntervalSeconds = yield* Config.Int("APPROVAL_SWEEP_INTERVAL_SECONDS").pipe(Config.withDefault(15))
  const transferAcceptanceTtlSeconds = yield* Config.schema(
    Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0)),
    "TRANSFER_ACCEPTANCE_TTL_SECONDS"
  ).pipe(Config.withDefault(DEFAULT_ACCEPTANCE_TTL_SECONDS))
  const cardAuthToleranceMinor = yield* wholeNumber("CARD_AUTH_TOLERANCE_MINOR", 0, 0)
  const cardAuthDeadlineMs = yield* wholeNumber("CARD_AUTH_DEADLINE_MS", 1_500, 100, 10_000)
  const notificationIntervalMs = yield* wholeNumber("NOTIFICATION_INTERVAL_MS", 1_000, 10, 3_600_000)
  const fileStorageDir = yield* Config.String("FILE_STORAGE_DIR").pipe(Config.withDefault(".data/files"))
  const maxFileBytes = yield* wholeNumber("MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES, 1, 1024 * 1024 * 1024)
  const cryptoWorkerIntervalSeconds = yield* positive("CRYPTO_WORKER_INTERVAL_SECONDS", 5)
  const chatApiUrl = yield* Config.String("CHAT_API_URL").pipe(Config.withDefault(DEFAULT_CHAT_API_URL))
  const chatApprovalsIntervalMs = yield* wholeNumber("CHAT_APPROVALS_INTERVAL_MS", 2_000, 10, 3_600_000)
  const dashboardDir = yield* Config.String("DASHBOARD_DIR").pipe(Config.withDefault(DEFAULT_DASHBOARD_DIR))
  const dashboardSessionTtlSeconds = yield* wholeNumber(
    "DASHBOARD_SESSION_TTL_SECONDS",
    DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
    60,
    30 * 86_400
  )
  const signInLinkIntervalMs = yield* wholeNumber(
    "SIGN_IN_LINK_INTERVAL_MS",
    DEFAULT_SIGN_IN_LINK_INTERVAL_MS,
    10,
    60_000
  )
  const mailOutboxDir = yield* Config.option(Config.String("MAIL_OUTBOX_DIR"))
  const smtp = yield* smtpConfig(publicBaseUrl)
  const cardNumberKey = yield* Config.option(Config.Redacted("CARD_NUMBER_KEY"))
  if (Option.isNone(cardNumberKey)) {
    // A fixed default would let anyone who knows it brute-force the stored hashes back into card numbers.
    yield* Effect.logWarning("CARD_NUMBER_KEY is unset: using a random key, so card number hashes die with the process")
  }
  return {
    sessionJwtSecret,
    ...(Option.isSome(sessionJwtPreviousSecret) ? { sessionJwtPreviousSecret: sessionJwtPreviousSecret.value } : {}),
    sessionMaxLifetimeSeconds,
    fileKeySecret,
    cursorSigningKey,
    publicBaseUrl: publicBaseUrl.replace(/\/+$/u, ""),
    approvalSweepIntervalSeconds,
    transferAcceptanceTtlSeconds,
    cardAuthToleranceMinor,
    cardAuthDeadlineMs,
    cardNumberKey: Option.getOrElse(cardNumberKey, () => Redacted.make(crypto.randomUUID() + crypto.randomUUID())),
    notificationIntervalMs,
    fileStorageDir,
    maxFileBytes,
    cryptoWorkerIntervalSeconds,
    chatApiUrl: chatApiUrl.replace(/\/+$/u, ""),
    chatApprovalsIntervalMs,
    dashboardDir,
    dashboardSessionTtlSeconds,
    signInLinkIntervalMs,
    ...(Option.isSome(mailOutboxDir) ? { mailOutboxDir: mailOutboxDir.value } : {}),
    ...(Option.isSome(smtp) ? { smtp: smtp.value } : {})
  } satisfies ServiceConfig
})

/** Every port the application needs: what each adapter package's `Ports` layer provides. */
export type Ports = Layer.Success<typeof PortsPg>

/** A number above zero from the environment, or `fallback`. */
export const positive = (name: string, fallback: number) =>
  Config.schema(Schema.FiniteFromString.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

/** What the background jobs wait for before they start: nothing, unless the server waits for its database. */
export const BackgroundJobsGate = Context.Reference<Effect.Effect<void>>("@svc/api/BackgroundJobsGate", {
  defaultValue: () => Effect.void
})

/**
 * Jobs that change shared state on a schedule (approval expiry, purges, webhook workers), started once the
 * `BackgroundJobsGate` opens: on unless `BACKGROUND_JOBS=off`, which the cluster primary sets on all workers but the
 * first, so one set runs.
 */
const backgroundJobs = <A, E, R>(jobs: Layer.Layer<A, E, R>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const on = yield* Config.Boolean("BACKGROUND_JOBS").pipe(Config.withDefault(true))
      const gate = yield* BackgroundJobsGate
      return on
        ? Layer.effectDiscard(
            gate.pipe(
              Effect.andThen(Layer.build(jobs)),
              Effect.andThen(Effect.never),
              Effect.catchCause((cause) => Effect.logError("background jobs could not start", cause)),
              Effect.forkScoped
            )
          )
        : Layer.empty
    })
  )

/** The in-process buckets of unknown /v1 credentials, forgotten when idle every `interval`. */
const unknownCredentialBuckets = (interval: Duration.Duration) =>
  Layer.merge(
    Layer.effect(UnknownCredentialLimiter, RateLimiter.use(Effect.succeed)),
    RateLimitPruneJob(interval)
  ).pipe(Layer.provide(RateLimiterMemory))

/**
 * /v1 protection from the environment: the rate limit (`RATE_LIMIT_V1_PER_MINUTE`, default 600 per key and per client
 * address for unknown credentials), the sign-in calls' limit per client address (`RATE_LIMIT_SIGN_IN_PER_MINUTE`,
 * default 30), and
 * the jobs purging idempotency responses after `IDEMPOTENCY_TTL_HOURS` (default 24) every
 * `IDEMPOTENCY_PURGE_INTERVAL_SECONDS` (default 3600) and forgetting idle rate-limit buckets.
 */
const v1Protection = Layer.unwrap(
  Effect.gen(function* () {
    const limit = Math.floor(yield* positive("RATE_LIMIT_V1_PER_MINUTE", 600))
    const signInLimit = Math.floor(yield* positive("RATE_LIMIT_SIGN_IN_PER_MINUTE", 30))
    const ttlHours = yield* positive("IDEMPOTENCY_TTL_HOURS", 24)
    const purgeSeconds = yield* positive("IDEMPOTENCY_PURGE_INTERVAL_SECONDS", 3600)
    const pruneInterval = Duration.seconds(Math.min(purgeSeconds, 300))
    return Layer.mergeAll(
      Layer.merge(RateLimitV1(Math.max(1, limit)), RateLimitSignIn(Math.max(1, signInLimit))).pipe(
        Layer.provide(unknownCredentialBuckets(pruneInterval))
      ),
      backgroundJobs(
        Layer.merge(
          IdempotencyPurgeJob({ ttl: Duration.hours(ttlHours), interval: Duration.seconds(purgeSeconds) }),
          RateLimitPruneJob(pruneInterval)
        )
      )
    )
  })
)

/**
 * Data retention from the environment: expired OAuth codes and tokens, and ended sign-in links and dashboard sessions,
 * are purged `OAUTH_PURGE_GRACE_HOURS` (default 24) after they end, finished webhook deliveries after `WEBHOOK_DELIVERY_RETENTION_DAYS` (default 30) and then the
 * delivered events they leave, and the used install nonces once their states have expired, every
 * `RETENTION_PURGE_INTERVAL_SECONDS` (default 3600).
 */
const retention = Layer.unwrap(
  Effect.gen(function* () {
    const graceHours = yield* positive("OAUTH_PURGE_GRACE_HOURS", 24)
    const retentionDays = yield* positive("WEBHOOK_DELIVERY_RETENTION_DAYS", 30)
    const interval = Duration.seconds(yield* positive("RETENTION_PURGE_INTERVAL_SECONDS", 3600))
    return backgroundJobs(
      Layer.mergeAll(
        OAuthPurgeJob({ grace: Duration.hours(graceHours), interval }),
        DashboardSessionsPurgeJob({ grace: Duration.hours(graceHours), interval }),
        WebhookPurgeJob({ retention: Duration.days(retentionDays), interval }),
        InstallNoncesPurgeJob(interval)
      )
    )
  })
)

/** The checkout settings a card's issuing and authorizations read. */
const checkoutSettings = (config: ServiceConfig) =>
  Layer.mergeAll(
    Layer.succeed(AuthorizationTolerance, config.cardAuthToleranceMinor),
    Layer.succeed(AuthorizationDeadline, config.cardAuthDeadlineMs),
    Layer.succeed(CardNumberKey, Redacted.value(config.cardNumberKey))
  )

/** The file store: on disk under `fileStorageDir` when configured, else in memory; with the per-file limit. */
const fileStorage = (config: ServiceConfig) =>
  Layer.merge(
    config.fileStorageDir === undefined ? FileStorageMemory : FileStorageFs(config.fileStorageDir),
    Layer.succeed(MaxFileBytes, config.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES)
  )

/**
 * Where outgoing mail goes: the SMTP server of `SMTP_URL` when set, else JSON files under `MAIL_OUTBOX_DIR` when set,
 * else the `Mailer` already in context (the log mailer unless the caller provides one).
 */
const outboundMail = (config: ServiceConfig) =>
  config.smtp !== undefined
    ? SmtpMailer.layer(config.smtp)
    : config.mailOutboxDir === undefined
      ? Layer.empty
      : MailerFs(config.mailOutboxDir)

/** What the integrations share: the key their secrets are sealed and their states signed under, and the dashboard. */
export class IntegrationSettings extends Context.Service<
  IntegrationSettings,
  {
    readonly secretsKey: Redacted.Redacted<string>
    /** Where integrations send the browser back once connected, without a trailing slash. */
    readonly dashboardUrl: string
  }
>()("@svc/api/IntegrationSettings") {}

/**
 * What every integration shares, read once (`IntegrationSettings`): `SealedSecrets` under `INTEGRATION_SECRETS_KEY` (by
 * default a key derived from the session secret, with a warning, so a fresh start works; set it, as the sealed tokens
 * die with that secret) and `DASHBOARD_URL` (`PUBLIC_BASE_URL/dashboard` unless given).
 */
export const integrationsFoundation = (config: ServiceConfig) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* Config.option(Config.Redacted("INTEGRATION_SECRETS_KEY"))
      if (Option.isNone(configured)) {
        yield* Effect.logWarning(
          "INTEGRATION_SECRETS_KEY is unset: integration secrets are sealed under a key derived from the session secret"
        )
      }
      const key = Option.getOrElse(configured, () =>
        Redacted.make(`integration-secrets:${Redacted.value(config.sessionJwtSecret)}`)
      )
      const dashboardUrl = yield* Config.String("DASHBOARD_URL").pipe(
        Config.withDefault(`${config.publicBaseUrl}/dashboard`)
      )
      return Layer.merge(
        SealedSecrets.layer(key),
        Layer.succeed(IntegrationSettings, { secretsKey: key, dashboardUrl: dashboardUrl.replace(/\/+$/u, "") })
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
      const settings = yield* mailAppSettings(`${config.publicBaseUrl}/apps/mail/oauth-callback`)
      return Layer.merge(MailConnection.layer, Layer.succeed(DashboardUrl, dashboardUrl)).pipe(
        Layer.provide([
          MailProviderHttp.layer(settings).pipe(Layer.provide(FetchHttpClient.layer)),
          MailStateJwe.layer(secretsKey)
        ])
      )
    })
  )

const DEFAULT_CHAT_SCOPES = "chat:write,commands,users:read,users:read.email,channels:history,incoming-webhook"

/**
 * The chat platform app (ADR 0034) from `CHAT_CLIENT_ID` and `CHAT_CLIENT_SECRET`, over the platform's Web API at
 * `CHAT_OAUTH_AUTHORIZE_URL`, `CHAT_OAUTH_TOKEN_URL` and `CHAT_API_URL`, asking for `CHAT_BOT_SCOPES`; unconfigured
 * (its routes answer 503) while either credential is unset.
 */
const chatApp = (config: ServiceConfig) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const clientId = yield* Config.option(Config.String("CHAT_CLIENT_ID"))
      const clientSecret = yield* Config.option(Config.Redacted("CHAT_CLIENT_SECRET"))
      if (Option.isNone(clientId) || Option.isNone(clientSecret)) return ChatApp.unconfigured
      const authorizeUrl = yield* Config.String("CHAT_OAUTH_AUTHORIZE_URL").pipe(
        Config.withDefault("https://slack.com/oauth/v2/authorize")
      )
      const tokenUrl = yield* Config.String("CHAT_OAUTH_TOKEN_URL").pipe(
        Config.withDefault("https://slack.com/api/oauth.v2.access")
      )
      const apiUrl = yield* Config.String("CHAT_API_URL").pipe(Config.withDefault(DEFAULT_CHAT_API_URL))
      const scopes = yield* Config.String("CHAT_BOT_SCOPES").pipe(Config.withDefault(DEFAULT_CHAT_SCOPES))
      const { secretsKey, dashboardUrl } = yield* IntegrationSettings
      const platform = ChatPlatformHttp.layer({
        clientId: clientId.value,
        clientSecret: clientSecret.value,
        tokenUrl,
        apiUrl: apiUrl.replace(/\/+$/u, "")
      }).pipe(Layer.provide(FetchHttpClient.layer))
      return ChatApp.layer({
        clientId: clientId.value,
        authorizeUrl,
        scopes: scopes
          .split(",")
          .map((scope) => scope.trim())
          .filter((scope) => scope.length > 0),
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
        Layer.provide([FetchHttpClient.layer, WebhookDestinationsLive])
      )
    )
  )

/** Where dashboard sign-in links point and how long its sessions live, from the service configuration. */
export const signInSettings = (config: ServiceConfig): DashboardSignInSettings => ({
  signInUrl: `${config.publicBaseUrl}/dashboard/sign-in`,
  sessionTtlSeconds: config.dashboardSessionTtlSeconds ?? DEFAULT_DASHBOARD_SESSION_TTL_SECONDS
})

/** Dashboard sign-in, and its pass mailing the links asked for, every `signInLinkIntervalMs` (ADR 0044). */
const dashboardSignIn = (config: ServiceConfig) =>
  backgroundJobs(SignInLinksJob(`${config.signInLinkIntervalMs ?? DEFAULT_SIGN_IN_LINK_INTERVAL_MS} millis`)).pipe(
    Layer.provideMerge(DashboardSignIn.layer(signInSettings(config)))
  )

/** The domain services (and their background jobs) over a set of ports. */
export const domainServices = <E, R>(config: ServiceConfig, ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(
    Activity.layer,
    Users.layer,
    Teams.layer,
    TeamOpening.layer,
    TeamManagement.layer,
    Customers.layer,
    Reports.layer,
    Invoices.layer.pipe(Layer.provide(Layer.merge(InvoiceRendererPdf, SimulatedPaymentsProvider))),
    FileAccess.layer,
    Documents.layer,
    AgentCredentialsLive.pipe(Layer.provide(TeamCredentialsLive)),
    TeamCredentialsLive,
    backgroundJobs(Transfers.sweeper(`${config.approvalSweepIntervalSeconds} seconds`)),
    backgroundJobs(Checkout.sweeper(`${config.approvalSweepIntervalSeconds} seconds`)),
    backgroundJobs(CryptoPayouts.sweeper(`${config.approvalSweepIntervalSeconds} seconds`)),
    backgroundJobs(CryptoPayouts.worker(`${config.cryptoWorkerIntervalSeconds ?? 5} seconds`)),
    Tracker.layer,
    Search.layer,
    dashboardSignIn(config),
    chatApprovals(config).pipe(Layer.provideMerge(chatApp(config))),
    mailIntegration(config)
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(Checkout.layer, CardAuthorizations.layer)),
    Layer.provideMerge(Layer.merge(SimulatedCardIssuer, checkoutSettings(config))),
    // Where payouts leave: the simulated rail (deterministic confirmations), or the EVM rail with CRYPTO_RAIL=evm.
    Layer.provideMerge(CryptoPayouts.layer.pipe(Layer.provide(payoutRail(SimulatedPayoutRail)))),
    Layer.provideMerge(Transfers.layer),
    Layer.provideMerge(CryptoQuotes.layer.pipe(Layer.provide(cryptoFeesFromConfig))),
    Layer.provideMerge(CryptoDestinations.layer),
    Layer.provideMerge(Layer.mergeAll(ReceiveAddresses.layer, PaymentCodes.layer)),
    Layer.provideMerge(Layer.mergeAll(OAuth.layer, OAuthApplications.layer, ApiKeys.layer)),
    Layer.provideMerge(backgroundJobs(SpendRequests.sweeper(`${config.approvalSweepIntervalSeconds} seconds`))),
    Layer.provideMerge(Layer.mergeAll(SpendRequests.layer, SpendFreezes.layer, ApprovalChains.layer)),
    Layer.provideMerge(Layer.merge(AgentKeys.layer, AuditLog.layer)),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(Layer.merge(Transactions.layer, Inbox.layer)),
    Layer.provideMerge(Layer.mergeAll(Categories.layer, Tags.layer, BankAccounts.layer, ExchangeRateTable.layer)),
    Layer.provideMerge(
      Layer.merge(
        Notifications.layer,
        backgroundJobs(
          NotificationsJob(`${config.notificationIntervalMs ?? 1_000} millis`).pipe(Layer.provide(Notifications.layer))
        )
      )
    ),
    Layer.provideMerge(ports),
    Layer.provideMerge(integrationsFoundation(config)),
    Layer.provideMerge(fileStorage(config)),
    Layer.provideMerge(outboundMail(config)),
    Layer.provideMerge(Layer.succeed(TransferAcceptanceTtl, config.transferAcceptanceTtlSeconds))
  )

/** /mcp admits the credentials /v1 accepts (spending keys, team API keys, OAuth access tokens). */
const McpCallers = Layer.effect(
  CallerCredentials,
  Effect.gen(function* () {
    const agents = yield* AgentCredentials
    return CallerCredentials.of({ known: (token) => Effect.map(agents.authenticate(token), Option.isSome) })
  })
)

/**
 * The payout rail `CRYPTO_RAIL` names: `simulated` (the default), or `evm`, which signs ERC-20 transfers from the hot
 * wallet on the EVM networks configured by the `CRYPTO_*` variables (`EvmRail`, ADR 0033).
 */
export const payoutRail = <E, R>(simulated: Layer.Layer<PayoutRail, E, R>) => {
  const rails: Record<"simulated" | "evm", Layer.Layer<PayoutRail, E | Config.ConfigError, R>> = {
    simulated,
    evm: EvmRail.layer
  }
  return Layer.unwrap(
    Config.Literals(["simulated", "evm"], "CRYPTO_RAIL").pipe(
      Config.withDefault("simulated"),
      Effect.map((rail) => rails[rail])
    )
  )
}

/** The HTTP application over the given ports and readiness check; the client address is resolved first (built first). */
export const appLayer = <E, R, R2>(
  config: ServiceConfig,
  ports: Layer.Layer<Ports, E, R>,
  readiness: Layer.Layer<Readiness, never, R2>
) =>
  Layer.mergeAll(
    MetricsLive,
    SecurityHeaders,
    v1Protection,
    retention,
    InboundWebhookRoutes,
    DashboardRoutes(config.dashboardDir ?? DEFAULT_DASHBOARD_DIR).pipe(Layer.provide(NodeHttpServer.layerHttpServices)),
    mcpOverHttp({ publicBaseUrl: config.publicBaseUrl }).pipe(Layer.provide(McpCallers)),
    backgroundJobs(WebhookWorkersLive)
  ).pipe(
    // Global middlewares nest in the order they are added: the request metrics go inside the routes' JSON error
    // handling (so they see the matched route) and outside the rate limit (so they count its 429s).
    Layer.provide(RequestMetrics.pipe(Layer.provide(ApiRoutes.pipe(Layer.provide(IdempotencyLive))))),
    Layer.provide(WebhookServicesLive),
    Layer.provide(domainServices(config, ports)),
    Layer.provide([
      SessionTokens.layer(
        [
          config.sessionJwtSecret,
          ...(config.sessionJwtPreviousSecret === undefined ? [] : [config.sessionJwtPreviousSecret])
        ],
        config.sessionMaxLifetimeSeconds
      ),
      FileKeys.layer(Redacted.value(config.fileKeySecret)),
      CursorKey.layer(Redacted.value(config.cursorSigningKey)),
      Layer.succeed(PublicBaseUrl, config.publicBaseUrl),
      readiness
    ]),
    Layer.provide(ClientAddress)
  )

/** Readiness over SQL: the database answers `SELECT 1` within two seconds. */
export const SqlReadiness = Layer.effect(
  Readiness,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Readiness.of({
      check: sql`SELECT 1`.pipe(
        Effect.timeout("2 seconds"),
        Effect.as(true),
        Effect.orElseSucceed(() => false)
      )
    })
  })
)

/** The application on Postgres (needs a SqlClient). */
export const appOnPostgres = (config: ServiceConfig) => appLayer(config, PortsPg, SqlReadiness)

/** The application on the in-memory adapters: no database at all (tests, demos). */
export const appInMemory = (config: ServiceConfig) =>
  appLayer(config, PortsMemory, Layer.succeed(Readiness, { check: Effect.succeed(true) }))

import { fileURLToPath } from "node:url"
import { EvmRail } from "@svc/adapters-evm"
import { parseTrustedProxies } from "@svc/adapters-http"
import { type MailAppSettings, type SmtpSettings, smtpSettings } from "@svc/adapters-integrations"
import type { WebhooksSettings } from "@svc/adapters-webhooks"
import {
  ChatInteractionsWebhook,
  type CryptoAsset,
  type CryptoFeeSchedule,
  CryptoNetwork,
  DEFAULT_ACCEPTANCE_TTL_SECONDS,
  DEFAULT_CRYPTO_FEES,
  DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
  DEFAULT_MAX_FILE_BYTES,
  DeliveryConfig,
  EVM_NETWORKS,
  type EvmNetwork,
  InboundRetryConfig,
  InboundWebhooks
} from "@svc/domain"
import {
  Config,
  ConfigProvider,
  type Context,
  Effect,
  Option,
  Redacted,
  Schema,
  SchemaIssue,
  SchemaTransformation
} from "effect"
import { IpNetwork } from "effect/net"

/**
 * The one place the service reads its environment: every variable apps/api and the packages it wires know is named
 * here once, as an effect `Config` (a bad value names its variable); the packages are handed the values (ADR 0048).
 * `serviceConfig` is read at start; the per-concern settings below are read when the layer that needs them is built.
 */

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
export const DEFAULT_SIGN_IN_LINK_INTERVAL_MS = 250

/** Where `npm run build:dashboard` puts the dashboard. */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../dashboard/dist", import.meta.url))

/** The chat platform's Web API unless `CHAT_API_URL` says otherwise. */
export const DEFAULT_CHAT_API_URL = "https://slack.com/api"

const DEFAULT_CHAT_SCOPES = "chat:write,commands,users:read,users:read.email,channels:history,incoming-webhook"

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

/** A configuration error naming what is wrong with a value (the message names the variable). */
const invalid = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

/** A number above zero from the environment, or `fallback`. */
const positive = (name: string, fallback: number) =>
  Config.schema(Schema.FiniteFromString.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

/** A URL without its trailing slashes. */
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/u, "")

/** A comma-separated list of IP addresses and CIDRs; the first entry that is neither is named in the error. */
const TrustedProxies = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.declare(IpNetwork.isIpNetwork)),
    SchemaTransformation.transformEffect({
      decode: (text) =>
        Effect.fromResult(parseTrustedProxies(text)).pipe(
          Effect.mapError(
            (entry) => new SchemaIssue.InvalidValue({ message: `"${entry}" is neither an IP address nor a CIDR` })
          )
        ),
      encode: (networks) => Effect.succeed(networks.map(IpNetwork.format).join(","))
    })
  )
)

/** The proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`, none unless given). */
export const trustedProxies = Config.schema(TrustedProxies, "TRUST_PROXY").pipe(
  Config.withDefault<ReadonlyArray<IpNetwork.IpNetwork>>([])
)

/** The port the server listens on (`PORT`, default 3000). */
const port = Config.Port("PORT").pipe(Config.withDefault(3000))

/** `SESSION_JWT_SECRET`, when set. */
export const configuredSessionSecret = Config.option(Config.Redacted("SESSION_JWT_SECRET"))

/** `FILE_KEY_SECRET`, when set. */
const configuredFileKeySecret = Config.option(Config.Redacted("FILE_KEY_SECRET"))

/** `DATABASE_URL`, when set (the embedded database otherwise). */
export const databaseUrl = Config.option(Config.String("DATABASE_URL"))

/**
 * The database: `DATABASE_URL` when set (pool size `DB_POOL_SIZE`, default 10; `DATABASE_POOLER=transaction` when a
 * pooler in transaction mode sits in front, default `none`), else an embedded Postgres whose data
 * lives under `PGLITE_DATA_DIR` (default `.data/pglite`); the migrations wait for it at most
 * `DATABASE_STARTUP_TIMEOUT_SECONDS` when set.
 */
export const databaseConfig = Config.all({
  url: databaseUrl.pipe(Config.map(Option.map((url) => Redacted.make(url)))),
  poolSize: Config.Int("DB_POOL_SIZE").pipe(Config.withDefault(10)),
  pooler: Config.Literals(["none", "transaction"], "DATABASE_POOLER").pipe(Config.withDefault("none" as const)),
  dataDir: Config.String("PGLITE_DATA_DIR").pipe(Config.withDefault(".data/pglite")),
  startupTimeoutSeconds: Config.option(
    Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "DATABASE_STARTUP_TIMEOUT_SECONDS")
  )
})

/** How many HTTP worker processes serve the port: `WEB_CONCURRENCY`, default 1 (this process serves alone). */
export const webConcurrency = Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "WEB_CONCURRENCY").pipe(
  Config.withDefault(1)
)

/** Whether this process runs the background jobs (`BACKGROUND_JOBS`, on unless `off`). */
export const backgroundJobsOn = Config.Boolean("BACKGROUND_JOBS").pipe(Config.withDefault(true))

/** The bearer token metrics scrapers present (`METRICS_TOKEN`); no /metrics route without it. */
export const metricsToken = Config.option(Config.Redacted("METRICS_TOKEN"))

/** The Node server: where it listens and its timeouts (`HOST`, `HTTP_*_TIMEOUT_SECONDS`), in milliseconds. */
export const httpServerConfig = Config.all({
  port,
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  requestMs: positive("HTTP_REQUEST_TIMEOUT_SECONDS", 30).pipe(Config.map((seconds) => seconds * 1000)),
  headersMs: positive("HTTP_HEADERS_TIMEOUT_SECONDS", 10).pipe(Config.map((seconds) => seconds * 1000)),
  keepAliveMs: positive("HTTP_KEEP_ALIVE_TIMEOUT_SECONDS", 5).pipe(Config.map((seconds) => seconds * 1000))
})

/** /v1 protection: the rate limits per minute and how long idempotency responses are kept and how often purged. */
export const v1ProtectionConfig = Config.all({
  limitPerMinute: positive("RATE_LIMIT_V1_PER_MINUTE", 600),
  signInLimitPerMinute: positive("RATE_LIMIT_SIGN_IN_PER_MINUTE", 30),
  idempotencyTtlHours: positive("IDEMPOTENCY_TTL_HOURS", 24),
  idempotencyPurgeSeconds: positive("IDEMPOTENCY_PURGE_INTERVAL_SECONDS", 3600)
})

/** The OAuth endpoints' limit per client address and minute (`RATE_LIMIT_OAUTH_PER_MINUTE`, default 60). */
export const oauthRateLimitPerMinute = Config.Int("RATE_LIMIT_OAUTH_PER_MINUTE").pipe(Config.withDefault(60))

/** Data retention: the grace after OAuth grants and sign-ins end, webhook delivery retention, the purge interval. */
export const retentionConfig = Config.all({
  graceHours: positive("OAUTH_PURGE_GRACE_HOURS", 24),
  webhookRetentionDays: positive("WEBHOOK_DELIVERY_RETENTION_DAYS", 30),
  intervalSeconds: positive("RETENTION_PURGE_INTERVAL_SECONDS", 3600)
})

/** Where payouts leave (`CRYPTO_RAIL`): the simulated rail unless `evm`. */
export const cryptoRail = Config.Literals(["simulated", "evm"], "CRYPTO_RAIL").pipe(Config.withDefault("simulated"))

type ContractAddress = NonNullable<EvmRail.EvmNetworkSettings["contracts"][CryptoAsset]>

/** A contract address from the environment (`name`), in its EIP-55 form; none when unset or blank. */
const contractAddress = (name: string) =>
  Config.option(Config.String(name)).pipe(
    Config.mapEffect((value) =>
      Option.match(
        Option.filter(value, (text) => text.trim() !== ""),
        {
          onNone: () => Effect.succeed(Option.none<ContractAddress>()),
          onSome: (text) => {
            const address = EvmRail.evmAddress(text.trim())
            return address === undefined
              ? Effect.fail(invalid(`${name} must be an EVM address (0x and 40 hex digits)`))
              : Effect.succeed(Option.some(address))
          }
        }
      )
    )
  )

/** One EVM network's `CRYPTO_<NETWORK>_*` settings, or none when its RPC URL is unset. */
const evmNetworkConfig = (network: EvmNetwork, defaultGasLimit: number) =>
  Effect.gen(function* () {
    const variable = (key: string) => EvmRail.evmVariable(network, key)
    const rpcUrl = yield* Config.option(Config.Redacted(variable("RPC_URL")))
    if (Option.isNone(rpcUrl) || Redacted.value(rpcUrl.value).trim() === "")
      return Option.none<EvmRail.EvmNetworkSettings>()
    const contracts: Partial<Record<CryptoAsset, ContractAddress>> = {}
    for (const asset of ["USDC", "USDT"] as const) {
      const contract = yield* contractAddress(variable(`${asset}_CONTRACT`))
      if (Option.isSome(contract)) contracts[asset] = contract.value
    }
    const confirmations = yield* wholeNumber(variable("CONFIRMATIONS"), EvmRail.DEFAULT_CONFIRMATIONS, 1, 1_000)
    const gasLimit = yield* wholeNumber(variable("GAS_LIMIT"), defaultGasLimit, 21_000, 30_000_000)
    return Option.some<EvmRail.EvmNetworkSettings>({
      rpcUrl: rpcUrl.value,
      contracts,
      confirmations,
      gasLimit: BigInt(gasLimit)
    })
  })

/**
 * The EVM rail's settings (`CRYPTO_RAIL=evm`): the hot wallet's key `CRYPTO_EVM_PRIVATE_KEY` (checked without ever
 * being echoed), `CRYPTO_EVM_GAS_LIMIT`, `CRYPTO_EVM_RPC_TIMEOUT_MS`, and each network whose `CRYPTO_<NETWORK>_RPC_URL`
 * is set.
 */
export const evmRailConfig = Effect.gen(function* () {
  const privateKey = yield* Config.Redacted("CRYPTO_EVM_PRIVATE_KEY").pipe(
    Config.mapEffect((key) =>
      EvmRail.isEvmPrivateKey(Redacted.value(key))
        ? Effect.succeed(key)
        : Effect.fail(invalid("CRYPTO_EVM_PRIVATE_KEY must be 0x and 64 hex digits"))
    )
  )
  const defaultGasLimit = yield* wholeNumber("CRYPTO_EVM_GAS_LIMIT", EvmRail.DEFAULT_GAS_LIMIT, 21_000, 30_000_000)
  const rpcTimeoutMs = yield* wholeNumber("CRYPTO_EVM_RPC_TIMEOUT_MS", EvmRail.DEFAULT_RPC_TIMEOUT_MS, 100, 600_000)
  const networks: Partial<Record<EvmNetwork, EvmRail.EvmNetworkSettings>> = {}
  for (const network of EVM_NETWORKS) {
    const settings = yield* evmNetworkConfig(network, defaultGasLimit)
    if (Option.isSome(settings)) networks[network] = settings.value
  }
  return { privateKey, rpcTimeoutMs, networks } satisfies EvmRail.EvmRailSettings
})

/**
 * The fee schedule crypto quotes charge: `CRYPTO_FEE_BPS` (default 50), `CRYPTO_FEE_MINIMUM` (cents, default 100) and
 * `CRYPTO_NETWORK_FEE_<NETWORK>` (cents: ETHEREUM 300, ARBITRUM 10, BASE 5, POLYGON 5, SOLANA 1).
 */
export const cryptoFeesConfig = Effect.gen(function* () {
  const serviceFeeBps = yield* wholeNumber("CRYPTO_FEE_BPS", DEFAULT_CRYPTO_FEES.serviceFeeBps, 0, 10_000)
  const serviceFeeMinimum = yield* wholeNumber("CRYPTO_FEE_MINIMUM", DEFAULT_CRYPTO_FEES.serviceFeeMinimum, 0)
  const networkFees = { ...DEFAULT_CRYPTO_FEES.networkFees }
  for (const network of CryptoNetwork.literals) {
    networkFees[network] = yield* wholeNumber(
      `CRYPTO_NETWORK_FEE_${network.toUpperCase()}`,
      DEFAULT_CRYPTO_FEES.networkFees[network],
      0
    )
  }
  return { serviceFeeBps, serviceFeeMinimum, networkFees } satisfies CryptoFeeSchedule
})

/** The `MAIL_*` settings when both the client id and secret are set (then every endpoint URL is required). */
export const mailAppConfig = (redirectUri: string) =>
  Effect.gen(function* () {
    const clientId = yield* Config.option(Config.NonEmptyString("MAIL_CLIENT_ID"))
    const clientSecret = yield* Config.option(Config.Redacted("MAIL_CLIENT_SECRET"))
    if (Option.isNone(clientId) || Option.isNone(clientSecret) || Redacted.value(clientSecret.value) === "") {
      return Option.none<MailAppSettings>()
    }
    return Option.some<MailAppSettings>({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: yield* Config.URL("MAIL_OAUTH_AUTHORIZE_URL").pipe(Effect.map(String)),
      tokenUrl: yield* Config.URL("MAIL_OAUTH_TOKEN_URL").pipe(Effect.map(String)),
      userinfoUrl: yield* Config.URL("MAIL_USERINFO_URL").pipe(Effect.map(String)),
      revokeUrl: yield* Config.URL("MAIL_OAUTH_REVOKE_URL").pipe(Effect.map(String)),
      scopes: yield* Config.String("MAIL_SCOPES").pipe(Config.withDefault("openid email mail.read")),
      redirectUri
    })
  })

/**
 * Where outbound POSTs may go (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`, development only: http and loopback, private or
 * other non-public addresses allowed; default false): webhook endpoints and deliveries, and chat response URLs.
 */
export const allowPrivateDestinationsConfig = Config.Boolean("WEBHOOK_ALLOW_PRIVATE_DESTINATIONS").pipe(
  Config.withDefault(false)
)

/** A whole number above zero from the environment, when set (else the policy's default). */
const positiveInt = (name: string) =>
  Config.option(Config.Int(name)).pipe(Config.map(Option.filter((n: number) => n > 0)))

/** `WEBHOOK_DELIVERY_SCHEDULE_MS`: comma-separated waits in milliseconds, when set and well-formed. */
const deliveryScheduleMs = Config.option(Config.String("WEBHOOK_DELIVERY_SCHEDULE_MS")).pipe(
  Config.map(
    Option.flatMap((raw) => {
      const parts = raw.split(",").map((p) => p.trim())
      return parts.every((p) => /^\d+$/u.test(p)) ? Option.some(parts.map(Number)) : Option.none()
    })
  )
)

/**
 * The webhooks adapter's settings: `INBOUND_MAX_ATTEMPTS`, `INBOUND_RETRY_BASE_MS`, `INBOUND_RETRY_MAX_MS`,
 * `WEBHOOK_POLL_INTERVAL_MS`, `WEBHOOK_DELIVERY_SCHEDULE_MS` (comma-separated waits), `WEBHOOK_DELIVERY_TIMEOUT_MS`,
 * `WEBHOOK_DELIVERY_LEASE_MS` (unset values keep the defaults), `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS` (default false),
 * the endpoint-secret key `WEBHOOK_SIGNING_KEY` (else FILE_KEY_SECRET, else SESSION_JWT_SECRET, else a random one),
 * each inbound endpoint's secret variable (`WEBHOOK_SECRET_<NAME>` and friends), and `WEBHOOK_WORKERS` (on unless `off`).
 */
export const webhooksConfig = Effect.gen(function* () {
  const inbound = InboundRetryConfig.defaultValue()
  const delivery = DeliveryConfig.defaultValue()
  const maxAttempts = yield* positiveInt("INBOUND_MAX_ATTEMPTS")
  const baseDelay = yield* positiveInt("INBOUND_RETRY_BASE_MS")
  const maxDelay = yield* positiveInt("INBOUND_RETRY_MAX_MS")
  const poll = yield* positiveInt("WEBHOOK_POLL_INTERVAL_MS")
  const timeout = yield* positiveInt("WEBHOOK_DELIVERY_TIMEOUT_MS")
  const lease = yield* positiveInt("WEBHOOK_DELIVERY_LEASE_MS")
  const scheduleMs = yield* deliveryScheduleMs
  const allowPrivateDestinations = yield* allowPrivateDestinationsConfig
  const signingKey = yield* Config.option(Config.Redacted("WEBHOOK_SIGNING_KEY"))
  const fileKeySecret = yield* configuredFileKeySecret
  const sessionSecret = yield* configuredSessionSecret
  const key = signingKey.pipe(
    Option.orElse(() => fileKeySecret),
    Option.orElse(() => sessionSecret)
  )
  if (Option.isNone(key)) {
    yield* Effect.logWarning("WEBHOOK_SIGNING_KEY is unset: webhook endpoint secrets change when the process restarts")
  }
  const inboundSecrets: Record<string, string | undefined> = {}
  for (const { secretEnv } of [...InboundWebhooks, ChatInteractionsWebhook]) {
    inboundSecrets[secretEnv] = Option.getOrUndefined(yield* Config.option(Config.String(secretEnv)))
  }
  const workers = yield* Config.String("WEBHOOK_WORKERS").pipe(Config.withDefault("on"))
  return {
    inbound: {
      ...inbound,
      maxAttempts: Option.getOrElse(maxAttempts, () => inbound.maxAttempts),
      baseDelayMs: Option.getOrElse(baseDelay, () => inbound.baseDelayMs),
      maxDelayMs: Option.getOrElse(maxDelay, () => inbound.maxDelayMs),
      pollIntervalMs: Option.getOrElse(poll, () => inbound.pollIntervalMs)
    },
    delivery: {
      ...delivery,
      scheduleMs: Option.getOrElse(scheduleMs, () => delivery.scheduleMs),
      timeoutMs: Option.getOrElse(timeout, () => delivery.timeoutMs),
      leaseMs: Option.getOrElse(lease, () => delivery.leaseMs),
      pollIntervalMs: Option.getOrElse(poll, () => delivery.pollIntervalMs)
    },
    allowPrivateDestinations,
    secretKey: Option.match(key, { onNone: () => crypto.randomUUID() + crypto.randomUUID(), onSome: Redacted.value }),
    inboundSecrets,
    workers: workers.toLowerCase() !== "off"
  } satisfies Context.Service.Shape<typeof WebhooksSettings>
})

export const integrationSecretsKey = Config.option(Config.Redacted("INTEGRATION_SECRETS_KEY"))

/** Where integrations send the browser back (`DASHBOARD_URL`, the dashboard under `publicBaseUrl` unless given). */
export const dashboardUrl = (publicBaseUrl: string) =>
  Config.String("DASHBOARD_URL").pipe(
    Config.withDefault(`${publicBaseUrl}/dashboard`),
    Config.map(withoutTrailingSlash)
  )

/** The chat platform's Web API base (`CHAT_API_URL`). */
const chatApiUrl = Config.String("CHAT_API_URL").pipe(
  Config.withDefault(DEFAULT_CHAT_API_URL),
  Config.map(withoutTrailingSlash)
)

/** The chat platform app's credentials and endpoints (`CHAT_*`); none while either credential is unset. */
export const chatAppConfig = Effect.gen(function* () {
  const clientId = yield* Config.option(Config.String("CHAT_CLIENT_ID"))
  const clientSecret = yield* Config.option(Config.Redacted("CHAT_CLIENT_SECRET"))
  if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
  const settings = yield* Config.all({
    authorizeUrl: Config.String("CHAT_OAUTH_AUTHORIZE_URL").pipe(
      Config.withDefault("https://slack.com/oauth/v2/authorize")
    ),
    tokenUrl: Config.String("CHAT_OAUTH_TOKEN_URL").pipe(Config.withDefault("https://slack.com/api/oauth.v2.access")),
    apiUrl: chatApiUrl,
    scopes: Config.String("CHAT_BOT_SCOPES").pipe(
      Config.withDefault(DEFAULT_CHAT_SCOPES),
      Config.map((scopes) =>
        scopes
          .split(",")
          .map((scope) => scope.trim())
          .filter((scope) => scope.length > 0)
      )
    )
  })
  return Option.some({ clientId: clientId.value, clientSecret: clientSecret.value, ...settings })
})

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
  const listenPort = yield* port
  const configured = yield* configuredSessionSecret
  if (Option.isNone(configured)) {
    yield* Effect.logWarning(
      "SESSION_JWT_SECRET is unset: using a random secret, so session tokens cannot be minted outside"
    )
  }
  const sessionJwtSecret = Option.getOrElse(configured, () => Redacted.make(crypto.randomUUID() + crypto.randomUUID()))
  const sessionJwtPreviousSecret = yield* Config.option(Config.Redacted("SESSION_JWT_PREVIOUS_SECRET"))
  const sessionMaxLifetimeSeconds = yield* Config.Int("SESSION_MAX_LIFETIME_SECONDS").pipe(Config.withDefault(86_400))
  const fileKeySecret = Option.getOrElse(yield* configuredFileKeySecret, () => sessionJwtSecret)
  const cursorSigningKey = yield* Config.Redacted("CURSOR_SIGNING_KEY").pipe(Config.withDefault(fileKeySecret))
  const publicBaseUrl = yield* Config.String("PUBLIC_BASE_URL").pipe(
    Config.withDefault(`http://localhost:${listenPort}`)
  )
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
  const chatApiBase = yield* chatApiUrl
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
    publicBaseUrl: withoutTrailingSlash(publicBaseUrl),
    approvalSweepIntervalSeconds,
    transferAcceptanceTtlSeconds,
    cardAuthToleranceMinor,
    cardAuthDeadlineMs,
    cardNumberKey: Option.getOrElse(cardNumberKey, () => Redacted.make(crypto.randomUUID() + crypto.randomUUID())),
    notificationIntervalMs,
    fileStorageDir,
    maxFileBytes,
    cryptoWorkerIntervalSeconds,
    chatApiUrl: chatApiBase,
    chatApprovalsIntervalMs,
    dashboardDir,
    dashboardSessionTtlSeconds,
    signInLinkIntervalMs,
    ...(Option.isSome(mailOutboxDir) ? { mailOutboxDir: mailOutboxDir.value } : {}),
    ...(Option.isSome(smtp) ? { smtp: smtp.value } : {})
  } satisfies ServiceConfig
})

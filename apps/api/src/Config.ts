import { fileURLToPath } from "node:url"
import { parseTrustedProxies } from "@svc/adapters-http"
import type { SmtpSettings } from "@svc/adapters-integrations"
import {
  DEFAULT_ACCEPTANCE_TTL_SECONDS,
  DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_PORT,
  localServiceUrl,
  SIGN_UP_POLICIES,
  type SignUpPolicy
} from "@svc/domain"
import { Config, Duration, Effect, Option, Redacted, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { IpNetwork } from "effect/net"
import { chatApiUrl, smtpConfig } from "./config/IntegrationsConfig.ts"
import { invalid, positive, wholeNumber, withoutTrailingSlash } from "./config/Values.ts"

/**
 * The service's own settings. The service reads its environment only here and in the modules of `config/` (payments,
 * integrations, webhooks, and the parsers they share): every variable apps/api and the packages it wires know is
 * named once across them, as an effect `Config` (a bad value names its variable); the packages are handed the values
 * (ADR 0048). `serviceConfig` is read at start; the per-concern settings are read when the layer that needs them is
 * built.
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
  /** The key presigned file URLs are signed with (`PRESIGNED_URL_KEY`); the file key secret when absent. */
  readonly presignedUrlKey?: Redacted.Redacted
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
  /** With a read replica: how long after a caller's write its reads still go to the primary (ADR 0052). */
  readonly readAfterWrite?: Duration.Duration
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
  /** Who may sign up to the dashboard with an address no user has (ADR 0057); `open` unless set. */
  readonly dashboardSignUp?: SignUpPolicy
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

/** The port the server listens on (`PORT`, default `DEFAULT_PORT`, 3000). */
const port = Config.Port("PORT").pipe(Config.withDefault(DEFAULT_PORT))

/** `SESSION_JWT_SECRET`, when set. */
export const configuredSessionSecret = Config.option(Config.Redacted("SESSION_JWT_SECRET"))

/** `FILE_KEY_SECRET`, when set. */
export const configuredFileKeySecret = Config.option(Config.Redacted("FILE_KEY_SECRET"))

/** `CARD_NUMBER_KEY`, when set. */
export const configuredCardNumberKey = Config.option(Config.Redacted("CARD_NUMBER_KEY"))

/** `DATABASE_URL`, when set (the embedded database otherwise). */
export const databaseUrl = Config.option(Config.String("DATABASE_URL"))

/**
 * The database: `DATABASE_URL` when set (pool size `DB_POOL_SIZE`, default 10; `DATABASE_POOLER=transaction` when a
 * pooler in transaction mode sits in front, default `none`), else an embedded Postgres whose data
 * lives under `PGLITE_DATA_DIR` (default `.data/pglite`); the migrations wait for it at most
 * `DATABASE_STARTUP_TIMEOUT_SECONDS` when set. `DATABASE_READ_URL`, when set, is a replica the lists and reports read
 * from (ADR 0052), reached the way `DATABASE_POOLER` says, with a pool of the same size; it needs `DATABASE_URL`.
 */
export const databaseConfig = Effect.gen(function* () {
  const settings = yield* Config.all({
    url: databaseUrl.pipe(Config.map(Option.map((url) => Redacted.make(url)))),
    poolSize: Config.Int("DB_POOL_SIZE").pipe(Config.withDefault(10)),
    pooler: Config.Literals(["none", "transaction"], "DATABASE_POOLER").pipe(Config.withDefault("none" as const)),
    readUrl: Config.option(Config.Redacted("DATABASE_READ_URL")),
    dataDir: Config.String("PGLITE_DATA_DIR").pipe(Config.withDefault(".data/pglite")),
    startupTimeoutSeconds: Config.option(
      Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "DATABASE_STARTUP_TIMEOUT_SECONDS")
    )
  })
  if (Option.isSome(settings.readUrl) && Option.isNone(settings.url)) {
    return yield* Effect.fail(invalid("DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replica"))
  }
  return settings
})

/**
 * How long after a caller's write its reads still go to the primary, so it reads what it wrote on a replica that lags
 * (`DATABASE_READ_AFTER_WRITE_SECONDS`, default 10); only with `DATABASE_READ_URL` (ADR 0052).
 */
const readAfterWriteConfig = Effect.gen(function* () {
  const { readUrl } = yield* databaseConfig
  const seconds = yield* wholeNumber("DATABASE_READ_AFTER_WRITE_SECONDS", 10, 0, 3600)
  return Option.map(readUrl, () => Duration.seconds(seconds))
})

/** How many HTTP worker processes serve the port: `WEB_CONCURRENCY`, default 1 (this process serves alone). */
export const webConcurrency = Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "WEB_CONCURRENCY").pipe(
  Config.withDefault(1)
)

/** Whether this process runs the background jobs (`BACKGROUND_JOBS`, on unless `off`). */
export const backgroundJobsOn = Config.Boolean("BACKGROUND_JOBS").pipe(Config.withDefault(true))

/**
 * How this process takes part in the background-jobs leader election (ADR 0050): `off` with `BACKGROUND_JOBS=off`
 * (it never leads), `alone` on the embedded database (one process, which leads), else `contend` for the leader lock
 * on a connection of its own to `DATABASE_DIRECT_URL` (default `DATABASE_URL`; required behind a transaction pooler,
 * which cannot hold a session lock), trying again every `BACKGROUND_JOBS_LEADER_RETRY_MS` (default 5000) while
 * another process leads and, while leading, checking the lock connection every `BACKGROUND_JOBS_LEADER_CHECK_MS`
 * (default 2000, also how long the check may take).
 */
type JobsLeaderSettings =
  | { readonly mode: "off" }
  | { readonly mode: "alone" }
  | { readonly mode: "contend"; readonly url: Redacted.Redacted; readonly retryMs: number; readonly checkMs: number }

/** Reads the leader election's settings; a direct URL without a server, or a pooler without one, stops the start. */
export const jobsLeaderConfig = Effect.gen(function* () {
  const on = yield* backgroundJobsOn
  const { url, pooler } = yield* databaseConfig
  const direct = yield* Config.option(Config.Redacted("DATABASE_DIRECT_URL"))
  const retryMs = yield* wholeNumber("BACKGROUND_JOBS_LEADER_RETRY_MS", 5_000, 100, 600_000)
  const checkMs = yield* wholeNumber("BACKGROUND_JOBS_LEADER_CHECK_MS", 2_000, 100, 600_000)
  if (Option.isSome(direct) && Option.isNone(url)) {
    return yield* Effect.fail(
      invalid("DATABASE_DIRECT_URL needs DATABASE_URL: the embedded database has no server to reach directly")
    )
  }
  if (!on) return { mode: "off" } satisfies JobsLeaderSettings
  if (Option.isNone(url)) return { mode: "alone" } satisfies JobsLeaderSettings
  if (pooler === "transaction" && Option.isNone(direct)) {
    return yield* Effect.fail(
      invalid(
        "DATABASE_DIRECT_URL is required with DATABASE_POOLER=transaction while BACKGROUND_JOBS is on: the background-jobs leader lock is a session lock, which a transaction pooler cannot keep; point DATABASE_DIRECT_URL at Postgres itself, or set BACKGROUND_JOBS=off"
      )
    )
  }
  return {
    mode: "contend",
    url: Option.getOrElse(direct, () => url.value),
    retryMs,
    checkMs
  } satisfies JobsLeaderSettings
})

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
  const presignedUrlKey = yield* Config.option(Config.Redacted("PRESIGNED_URL_KEY"))
  const publicBaseUrl = yield* Config.String("PUBLIC_BASE_URL").pipe(Config.withDefault(localServiceUrl(listenPort)))
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
  const dashboardSignUp = yield* Config.Literals(SIGN_UP_POLICIES, "DASHBOARD_SIGN_UP").pipe(
    Config.withDefault<SignUpPolicy>("open")
  )
  const signInLinkIntervalMs = yield* wholeNumber(
    "SIGN_IN_LINK_INTERVAL_MS",
    DEFAULT_SIGN_IN_LINK_INTERVAL_MS,
    10,
    60_000
  )
  const mailOutboxDir = yield* Config.option(Config.String("MAIL_OUTBOX_DIR"))
  const smtp = yield* smtpConfig(publicBaseUrl)
  const readAfterWrite = yield* readAfterWriteConfig
  const cardNumberKey = yield* configuredCardNumberKey
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
    ...(Option.isSome(presignedUrlKey) ? { presignedUrlKey: presignedUrlKey.value } : {}),
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
    dashboardSignUp,
    signInLinkIntervalMs,
    ...(Option.isSome(mailOutboxDir) ? { mailOutboxDir: mailOutboxDir.value } : {}),
    ...(Option.isSome(readAfterWrite) ? { readAfterWrite: readAfterWrite.value } : {}),
    ...(Option.isSome(smtp) ? { smtp: smtp.value } : {})
  } satisfies ServiceConfig
})

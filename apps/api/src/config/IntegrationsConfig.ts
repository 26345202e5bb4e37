import { type MailAppSettings, type SmtpSettings, smtpSettings } from "@svc/adapters-integrations"
import { Config, Effect, Option, Redacted } from "effect"
import { withoutTrailingSlash } from "./Values.ts"

/** The chat platform's Web API unless `CHAT_API_URL` says otherwise. */
export const DEFAULT_CHAT_API_URL = "https://slack.com/api"

const DEFAULT_CHAT_SCOPES = "chat:write,commands,users:read,users:read.email,channels:history,incoming-webhook"

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

export const integrationSecretsKey = Config.option(Config.Redacted("INTEGRATION_SECRETS_KEY"))

/** Where integrations send the browser back (`DASHBOARD_URL`, the dashboard under `publicBaseUrl` unless given). */
export const dashboardUrl = (publicBaseUrl: string) =>
  Config.String("DASHBOARD_URL").pipe(
    Config.withDefault(`${publicBaseUrl}/dashboard`),
    Config.map(withoutTrailingSlash)
  )

/** The chat platform's Web API base (`CHAT_API_URL`). */
export const chatApiUrl = Config.String("CHAT_API_URL").pipe(
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
export const smtpConfig = (publicBaseUrl: string) =>
  Effect.gen(function* () {
    const url = yield* Config.option(Config.Redacted("SMTP_URL"))
    if (Option.isNone(url)) return Option.none<SmtpSettings>()
    const host = new URL(publicBaseUrl).hostname
    const from = yield* Config.String("SMTP_FROM").pipe(Config.withDefault(`no-reply@${host}`))
    return yield* Effect.sync(() => Option.some(smtpSettings(Redacted.value(url.value), from, host)))
  })

import { MailerFs } from "@svc/adapters-fs"
import { SmtpMailer } from "@svc/adapters-integrations"
import {
  DashboardSignIn,
  type DashboardSignInSettings,
  DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
  SignInLinksJob
} from "@svc/domain"
import { Layer } from "effect"
import { DEFAULT_SIGN_IN_LINK_INTERVAL_MS, type ServiceConfig } from "./Config.ts"
import { backgroundJobs } from "./Workers.ts"

/**
 * Where outgoing mail goes: the SMTP server of `SMTP_URL` when set, else JSON files under `MAIL_OUTBOX_DIR` when set,
 * else the `Mailer` already in context (the log mailer unless the caller provides one).
 */
export const outboundMail = (config: ServiceConfig) =>
  config.smtp !== undefined
    ? SmtpMailer.layer(config.smtp)
    : config.mailOutboxDir === undefined
      ? Layer.empty
      : MailerFs(config.mailOutboxDir)

/** Where dashboard sign-in links point, how long its sessions live and who may sign up, from the service configuration. */
export const signInSettings = (config: ServiceConfig): DashboardSignInSettings => ({
  signInUrl: `${config.publicBaseUrl}/dashboard/sign-in`,
  sessionTtlSeconds: config.dashboardSessionTtlSeconds ?? DEFAULT_DASHBOARD_SESSION_TTL_SECONDS,
  signUp: config.dashboardSignUp ?? "open"
})

/** Dashboard sign-in, and its pass mailing the links asked for, every `signInLinkIntervalMs` (ADR 0044). */
export const dashboardSignIn = (config: ServiceConfig) =>
  backgroundJobs(SignInLinksJob(`${config.signInLinkIntervalMs ?? DEFAULT_SIGN_IN_LINK_INTERVAL_MS} millis`)).pipe(
    Layer.provideMerge(DashboardSignIn.layer(signInSettings(config)))
  )

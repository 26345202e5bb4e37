import { Context, Effect } from "effect"

/** An e-mail to send: plain text. */
export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** Sends e-mail. */
export interface MailerShape {
  readonly send: (message: MailMessage) => Effect.Effect<void>
  /**
   * Where a mailer that mails nobody (local use) puts each message instead, in words ("the service's log"), for the
   * person waiting for it; null for a mailer that delivers.
   */
  readonly localDelivery: string | null
}

/**
 * The log mailer, meant for local use only: it writes each message, body included, to the log. A message may carry a
 * secret (an invitation's token), which therefore lands in the log; a deployment that mails for real provides its own
 * `Mailer`.
 */
export const logMailer: MailerShape = {
  send: (message) =>
    Effect.logInfo("mail (log mailer, local use only)").pipe(
      Effect.annotateLogs({ to: message.to, subject: message.subject, text: message.text })
    ),
  localDelivery: 'the service\'s log (the line "mail (log mailer, local use only)")'
}

/** The mail port; the log mailer unless a composition root provides another. */
export const Mailer = Context.Reference<MailerShape>("@svc/domain/Mailer", { defaultValue: () => logMailer })

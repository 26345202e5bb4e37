import { Effect } from "effect"
import { serviceUnavailable } from "../../api/shared/index.ts"

/** 503 `mail_app_not_configured`: the service has no mail app credentials. */
export const mailAppNotConfigured = () =>
  Effect.fail(
    serviceUnavailable(
      "the mail app is not configured: set MAIL_CLIENT_ID and MAIL_CLIENT_SECRET",
      "mail_app_not_configured"
    )
  )

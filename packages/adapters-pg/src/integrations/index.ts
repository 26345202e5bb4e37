import { Layer } from "effect"
import { MailInboxAccountsRepoPg } from "./MailInboxAccountsRepoPg.ts"

export * from "./MailInboxAccountsRepoPg.ts"

/** The integrations context's storage ports on Postgres (the providers are not storage). */
export const IntegrationsPortsPg = Layer.mergeAll(MailInboxAccountsRepoPg)

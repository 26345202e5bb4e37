import { Layer } from "effect"
import { ChatIntegrationsRepoPg } from "./ChatIntegrationsRepoPg.ts"
import { MailInboxAccountsRepoPg } from "./MailInboxAccountsRepoPg.ts"

export * from "./ChatIntegrationsRepoPg.ts"
export * from "./MailInboxAccountsRepoPg.ts"

/** The integrations context's storage ports on Postgres (the platforms and providers are not storage). */
export const IntegrationsPortsPg = Layer.mergeAll(ChatIntegrationsRepoPg, MailInboxAccountsRepoPg)
